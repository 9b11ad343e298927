import type { ParsedQuery, SearchScope, TextMatches } from '../search-store.js';

/**
 * One way of finding and ranking text matches on SQLite. Two implement it, with the same
 * ranking: FTS5 itself (fts-search.ts), which answers every query, and the in-memory text index
 * (text-index/search.ts), which answers queries of plain words once it is built and caught up,
 * without scoring through FTS5's auxiliary function. SqliteSearchStore (search.ts) asks the
 * index first and FTS5 when the index declines: that is the one place the choice is made.
 */
export interface TextIndex {
  /**
   * The `limit` best hits in scope, the count of every match, and a check of any others; or
   * undefined when this index cannot answer the query now.
   */
  textMatches(scope: SearchScope, query: ParsedQuery, limit: number): TextMatches | undefined;
  /** textMatches' hits without its count (see SearchStore.bestMatchIds); undefined likewise. */
  bestMatchIds(brainId: string, query: ParsedQuery, limit: number): string[] | undefined;
}

/** A match: its id, relevance (higher is better) and creation time (for ties). */
export type Ranked = [id: string, relevance: number, created_at: string];

/** A JSON array of ids bound as @ids, as a set SQLite can test membership in. */
export const IDS = `(SELECT value FROM json_each(@ids))`;

export const compareDesc = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);

/** Best first, as textMatches orders its hits: by relevance, then the newest, then the id. */
export function byRelevance(rows: Ranked[]): Ranked[] {
  return rows.sort((a, b) => b[1] - a[1] || compareDesc(a[2], b[2]) || compareDesc(a[0], b[0]));
}
