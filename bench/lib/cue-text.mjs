/**
 * A text of `size` characters made from `seed`, the crystallize benches' input: sentences with
 * cue phrases ("I believe that", "Always remember that"), its words its own, so that nothing a
 * text meets is cached from another.
 */
export function cueText(seed, size) {
  let state = seed * 7919 + 1;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const word = () =>
    Array.from({ length: 4 + Math.floor(random() * 6) }, () => 'abcdefghiklmnoprstuvw'[Math.floor(random() * 21)]).join(
      '',
    );
  const openers = ['I believe that', 'Always remember that', 'I am convinced that', 'In my view', 'We learned that'];
  let text = '';
  while (text.length < size) {
    const sentences = Array.from({ length: 2 + Math.floor(random() * 3) }, (_, i) => {
      const opener = i === 0 ? `${openers[Math.floor(random() * openers.length)]} ` : '';
      return `${opener}the ${word()} ${word()} makes every ${word()} ${word()} ${word()}.`;
    });
    text += `${sentences.join(' ')}\n\n`;
  }
  return text.slice(0, size);
}
