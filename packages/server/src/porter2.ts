import { createRequire } from 'node:module';

/**
 * Snowball's English stemmer (Porter2), the one PostgreSQL's 'english' configuration uses; also
 * what memory ranking and snapshot search's query coverage stem with, on either store.
 * wink-porter2-stemmer is CommonJS without types: one function, a word in, its stem out.
 */
export const porter2: (word: string) => string = createRequire(import.meta.url)('wink-porter2-stemmer');

/**
 * porter2, remembered: stemming costs about 20 µs a word, and a search reads a hundred memories
 * (or snapshots) of mostly the same words. Bounded: emptied when it holds STEMS_KEPT words.
 */
const STEMS_KEPT = 100_000;
const stemmed = new Map<string, string>();
export function stem(word: string): string {
  let s = stemmed.get(word);
  if (s === undefined) {
    if (stemmed.size >= STEMS_KEPT) stemmed.clear();
    s = porter2(word);
    stemmed.set(word, s);
  }
  return s;
}
