/**
 * The words memory ranking weighs, as both the ranking (domain/memories/ranking.ts) and the
 * SQLite store's word index (store/sqlite/memory-word-index/) read them: lower-cased, stop words
 * dropped, Porter2 stems, weighted by field. Here, below both layers, so that the index and the
 * ranking count the same words without the store importing the domain.
 */
import { eng } from 'stopword';
import type { Memory } from './model.js';
import { stem } from './porter2.js';

/** A word in the speaker counts twice a word in the content (questions name people); in a tag, as much. */
export const FIELD_WEIGHTS = { speaker: 2, tag: 2 } as const;

/**
 * The stop words of the query parser (the `stopword` package's list) and the Snowball English
 * list, which PostgreSQL's `english` configuration drops: a word one store does not index must
 * weigh nothing in either, and the Snowball list also holds words the other misses that say
 * nothing in a question (`when`, `she`, `does`).
 */
const SNOWBALL_STOP_WORDS = `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
  she her hers herself it its itself they them their theirs themselves what which who whom this that these those am
  is are was were be been being have has had having do does did doing would should could ought a an the and but if or
  because as until while of at by for with about against between into through during before after above below to
  from up down in out on off over under again further then once here there when where why how all any both each few
  more most other some such no nor not only own same so than too very`.split(/\s+/);
export const STOP_WORDS = new Set([...eng, ...SNOWBALL_STOP_WORDS]);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * BM25's IDF, ln(1 + (N − df + 0.5) / (df + 0.5)); a word no memory holds, as the store counts
 * (a word its index drops, such as a stop word of PostgreSQL's), weighs nothing.
 */
export function idfOf(size: number, df: number): number {
  if (df <= 0) return 0;
  return Math.log(1 + (Math.max(size, df) - df + 0.5) / (df + 0.5));
}

export interface Bag {
  counts: ReadonlyMap<string, number>;
  /** A word of the memory for each stem, to ask the store to count (it stems itself). */
  words: ReadonlyMap<string, string>;
  length: number;
}

/** A memory's stemmed words with their weighted counts, and its weighted length. */
export function bagOf(m: Pick<Memory, 'content' | 'speaker' | 'tags'>, withWords = true): Bag {
  const counts = new Map<string, number>();
  const words = withWords ? new Map<string, string>() : NO_WORDS;
  let length = 0;
  forEachStem(m, (s, weight, word) => {
    const c = counts.get(s);
    if (c === undefined) {
      counts.set(s, weight);
      if (withWords) (words as Map<string, string>).set(s, word);
    } else counts.set(s, c + weight);
    length += weight;
  });
  return { counts, words, length };
}

/** Each word of a memory that ranking weighs, stemmed, with its field's weight (a bag's words, in order). */
export function forEachStem(
  m: Pick<Memory, 'content' | 'speaker' | 'tags'>,
  each: (stem: string, weight: number, word: string) => void,
): void {
  const add = (text: string, weight: number) => {
    const found = text.toLowerCase().match(WORD);
    if (!found) return;
    for (const word of found) {
      const s = indexedStem(word);
      if (s !== null) each(s, weight, word);
    }
  };
  add(m.content, 1);
  if (m.speaker !== null) add(m.speaker, FIELD_WEIGHTS.speaker);
  for (const tag of m.tags) add(tag, FIELD_WEIGHTS.tag);
}

/** The `words` of a bag made without them (a word index's bags: ranking counts their stems). */
export const NO_WORDS: ReadonlyMap<string, string> = new Map();

/**
 * A lower-cased word's stem, or null for a stop word: one look-up a word where a bag is made
 * (a brain's index makes a bag of every memory). Emptied when it holds WORDS_KEPT words.
 */
const WORDS_KEPT = 100_000;
const stemsOrStops = new Map<string, string | null>();
function indexedStem(word: string): string | null {
  let s = stemsOrStops.get(word);
  if (s === undefined) {
    if (stemsOrStops.size >= WORDS_KEPT) stemsOrStops.clear();
    s = STOP_WORDS.has(word) ? null : stem(word);
    stemsOrStops.set(word, s);
  }
  return s;
}
