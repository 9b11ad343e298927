import { prng } from '../helpers/prng.js';

/**
 * Made-up English prose of any length, the same for a seed: sentences of common words and a
 * vocabulary of a few thousand invented ones, in paragraphs, as an ordinary long document.
 */
export function prose(chars: number, seed = 7): string {
  const next = prng(seed);
  const syllables = ['ka', 'lo', 'mi', 'ren', 'sa', 'tor', 'vel', 'na', 'dri', 'po', 'quen', 'ul', 'bar', 'sti', 'mon'];
  const vocabulary = Array.from({ length: 3000 }, () => {
    const n = 2 + Math.floor(next() * 3);
    return Array.from({ length: n }, () => syllables[Math.floor(next() * syllables.length)]).join('');
  });
  const common = ['the', 'a', 'of', 'and', 'is', 'in', 'that', 'we', 'should', 'because', 'every', 'team', 'always'];
  // Zipf-like: low ranks far more often.
  const word = () => vocabulary[Math.floor(vocabulary.length * next() ** 3)] as string;
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const sentences: string[] = [];
    const count = 3 + Math.floor(next() * 4);
    for (let s = 0; s < count; s++) {
      const words: string[] = [];
      const n = 8 + Math.floor(next() * 12);
      for (let w = 0; w < n; w++)
        words.push(next() < 0.45 ? (common[Math.floor(next() * common.length)] as string) : word());
      const sentence = words.join(' ');
      sentences.push(`${sentence[0]?.toUpperCase()}${sentence.slice(1)}.`);
    }
    const paragraph = sentences.join(' ');
    parts.push(paragraph);
    length += paragraph.length + 2;
  }
  return parts.join('\n\n').slice(0, chars);
}
