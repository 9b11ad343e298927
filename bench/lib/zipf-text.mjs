// Text for search benchmarks: a fixed vocabulary of made-up words (so that no stop word or
// stemming rule of any engine treats one specially) drawn with a Zipf-like distribution, the
// way words occur in prose, so a two-word query matches hundreds or thousands of rows of a
// large brain, not all or none. Everything is deterministic from a seed.

/** mulberry32: a small, fast, seeded generator of numbers in [0, 1). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'gr', 'kl', 'st', 'tr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u'];
const CODAS = ['', '', '', 'n', 'r', 'l', 'm', 'x'];

/** `size` distinct words of 2–4 syllables, most frequent first (rank 1 = index 0). */
export function vocabulary(size, seed = 1) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const words = new Set();
  while (words.size < size) {
    const syllables = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(VOWELS) + (i === syllables - 1 ? pick(CODAS) : '');
    words.add(word);
  }
  return [...words];
}

/** `draw(next)` → a rank in 0..n-1 with probability ∝ 1 / (rank + 1)^exponent, from `next()` in [0, 1). */
export function zipf(n, exponent = 1) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / (r + 1) ** exponent;
  return (next) => {
    const x = next() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const TAGS = ['work', 'health', 'money', 'family', 'craft', 'habits', 'learning', 'teams', 'design', 'writing'];

/**
 * A generator of snapshot text: `text(i)` → { name, core, tags } for snapshot i, the same for
 * the same i and seed. Names are 2–4 words, cores 2–4 sentences of 6–16 words (about 40 words
 * in all), tags 0–2 from a small list of their own (query words never match them).
 */
export function snapshotText({ words = vocabulary(4000), seed = 7 } = {}) {
  const draw = zipf(words.length);
  return (i) => {
    const next = random(seed * 1_000_003 + i);
    const phrase = (count) => Array.from({ length: count }, () => words[draw(next)]).join(' ');
    const capital = (s) => s[0].toUpperCase() + s.slice(1);
    const name = capital(phrase(2 + Math.floor(next() * 3)));
    const sentences = Array.from(
      { length: 2 + Math.floor(next() * 3) },
      () => `${capital(phrase(6 + Math.floor(next() * 11)))}.`,
    );
    const tags = Array.from({ length: Math.floor(next() * 3) }, () => TAGS[Math.floor(next() * TAGS.length)]);
    return { name, core: sentences.join(' '), tags: [...new Set(tags)] };
  };
}
