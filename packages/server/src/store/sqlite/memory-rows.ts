import type { Memory } from '../../model.js';
import { MEMORY_COLUMNS } from '../columns.js';
import type { MemoryFilters } from '../memory-store.js';

// What the memory store's parts (memories.ts, memory-search.ts, memory-word-index/feed.ts) share:
// the columns, the row's shape and the filters of design §12 as SQL.
export const COLUMNS = MEMORY_COLUMNS.join(', ');
export const COLUMNS_OF_M = MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ');
export type MemoryRow = Omit<Memory, 'tags'> & { tags: string };
export const memoryToRow = (accountId: string, m: Memory) => ({
  ...m,
  account_id: accountId,
  tags: JSON.stringify(m.tags),
});
export const memoryFromRow = (row: MemoryRow): Memory => ({ ...row, tags: JSON.parse(row.tags) as string[] });
/** Oldest first by (occurred_at, id). */
export const byOccurrence = (a: Memory, b: Memory) =>
  a.occurred_at < b.occurred_at ? -1 : a.occurred_at > b.occurred_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
export function memoryFilters(m: string): string {
  return `(@speaker IS NULL OR ${m}.speaker = @speaker) AND (@session_id IS NULL OR ${m}.session_id = @session_id)
    AND (@since IS NULL OR ${m}.occurred_at >= @since) AND (@until IS NULL OR ${m}.occurred_at <= @until)
    AND (@current_only = 0 OR ${m}.superseded_by IS NULL OR ${m}.superseded_at > @current_at)`;
}
/** The values of the filters' parameters, null for any. */
export const filterValues = (f: MemoryFilters) => ({
  memory_type: f.memoryType ?? null,
  speaker: f.speaker ?? null,
  session_id: f.sessionId ?? null,
  since: f.since ?? null,
  until: f.until ?? null,
  current_only: f.current ? 1 : 0,
  // Replaced only by a memory that occurred after the moment asked about: current then.
  current_at: f.current?.asOf ?? '9999-12-31T23:59:59.999Z',
});
export const needsRows = (f: MemoryFilters) =>
  f.speaker !== undefined ||
  f.sessionId !== undefined ||
  f.since !== undefined ||
  f.until !== undefined ||
  f.current !== undefined;
