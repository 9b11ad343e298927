import { SnapgraphError } from '@snapgraph/client';

/**
 * Paging a ranked answer by cursor. The cursor is the offset of the next result, as a string:
 * search_snapshots passes it to the search API's `offset`; memory and knowledge search have no
 * offset, only the best 100, so recall and search_knowledge ask for the best `offset + limit`
 * and answer the part past `offset` (RANKED_WINDOW is the furthest they page); suggest_links
 * does the same over the best 50 suggestions (SUGGESTIONS_WINDOW, the API's largest limit).
 */
export const RANKED_WINDOW = 100;
/** The search API's deepest offset (it reaches its first 10,000 results): search_snapshots pages no further. */
export const SEARCH_OFFSET_MAX = 9_900;
export const SUGGESTIONS_WINDOW = 50;

/** The offset a cursor names; a cursor no tool gave is the caller's mistake (BAD_REQUEST), not an outage. */
export function offsetFrom(cursor: string | undefined, tool: string): number {
  const offset = cursor === undefined || cursor === '' ? 0 : Number(cursor);
  if (!Number.isInteger(offset) || offset < 0) {
    const reason = `must be a next_cursor from ${tool}`;
    throw new SnapgraphError({
      status: 400,
      code: 'BAD_REQUEST',
      message: `cursor ${reason}`,
      details: { field: 'cursor', reason },
    });
  }
  return offset;
}

/** The next page's cursor, or null after the last result (of `count`, or of what can be paged). */
export function nextCursor(offset: number, returned: number, count: number, window = Number.POSITIVE_INFINITY) {
  const next = offset + returned;
  return returned > 0 && next < Math.min(count, window) ? String(next) : null;
}

/** The best `offset + limit` to ask for, within the window. */
export const rankedFetch = (offset: number, limit: number, window = RANKED_WINDOW) => Math.min(window, offset + limit);
