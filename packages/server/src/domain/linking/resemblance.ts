import { parseQuery } from '../search/query.js';

/**
 * The distinctive words of a text, as the pair score compares them: no stop words, and a plural
 * `s` dropped so that "coats" meets "coat" (the search index stems fully; this is enough here).
 */
export function wordSet(text: string): Set<string> {
  return new Set(
    parseQuery(text).terms.map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    ),
  );
}

/** The cosine of two word sets: shared / √(|A|·|B|), 1 for the same words, 0 when either is empty. */
export function wordCosine(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.sqrt(a.size * b.size);
}
