import { eng } from 'stopword';
import type { ParsedQuery } from '../../store/search-store.js';

export type { ParsedQuery };

const STOP_WORDS = new Set(eng);
/** More terms than this add cost and no precision; the first ones are kept. */
const MAX_PARTS = 64;
const WORD = /[\p{L}\p{N}]+/gu;
/**
 * A prefix shorter than this, in bytes of UTF-8, reads as the word it is: `a*` stands for most
 * words of every brain on the server, and a full-text engine merges the postings of each word it
 * begins before it can keep the caller's (36 one-letter prefixes cost 2.8 s a search at 100,000
 * snapshots in another account), for no precision. Bytes, not letters: three Latin letters, two
 * Greek or Cyrillic ones, or one Chinese character (a word in itself) make a prefix.
 */
export const PREFIX_MIN_BYTES = 3;
/** Prefixes kept in one query, for the same cost; the ones after read as words. */
export const MAX_PREFIXES = 8;

const words = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/**
 * Parses a query. Stop words match nothing (design §8.1), so a query of stop words alone
 * parses to nothing, and the search finds nothing rather than failing.
 */
export function parseQuery(q: string): ParsedQuery {
  const parsed: ParsedQuery = { terms: [], prefixes: [], phrases: [] };
  const seen = new Set<string>();
  const keep = (kind: string, key: string) => {
    const id = `${kind}:${key}`;
    if (seen.has(id) || seen.size >= MAX_PARTS) return false;
    seen.add(id);
    return true;
  };
  // Quoted phrases first; what is left is read word by word.
  const rest = q.replace(/"([^"]*)"/g, (_, phrase: string) => {
    const tokens = words(phrase);
    if (tokens.length === 1) addWord(tokens[0] as string, false);
    else if (tokens.length > 1 && keep('phrase', tokens.join(' '))) parsed.phrases.push(tokens);
    return ' ';
  });
  for (const match of rest.toLowerCase().matchAll(/([\p{L}\p{N}]+)(\*?)/gu)) {
    addWord(match[1] as string, match[2] === '*');
  }
  return parsed;

  function addWord(word: string, prefix: boolean): void {
    if (prefix && (Buffer.byteLength(word) < PREFIX_MIN_BYTES || parsed.prefixes.length >= MAX_PREFIXES)) {
      addWord(word, false);
    } else if (prefix) {
      if (keep('prefix', word)) parsed.prefixes.push(word);
    } else if (!STOP_WORDS.has(word) && keep('term', word)) parsed.terms.push(word);
  }
}

export const isEmptyQuery = (q: ParsedQuery): boolean =>
  q.terms.length === 0 && q.prefixes.length === 0 && q.phrases.length === 0;

/** Every word of a parsed query, for explanations and reasons. */
export const queryWords = (q: ParsedQuery): string[] => [...q.terms, ...q.prefixes, ...q.phrases.flat()];
