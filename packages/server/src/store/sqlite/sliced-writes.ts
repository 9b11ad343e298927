import { setTimeout as sleep } from 'node:timers/promises';
import type { Edge } from '../../model.js';
import type { KnowledgeWrite } from '../knowledge-store.js';
import type { SqliteKnowledgeStore } from './knowledge.js';
import type { SqliteDatabase } from './open-database.js';

/**
 * Rows per transaction of a large write. One transaction of a 1 MB document's 12,000 entries held
 * SQLite's write lock for 10–30 s on a loaded machine, and every other account's small write
 * waited that long or was refused (issue 46). A slice of this many rows holds it for tens of
 * milliseconds.
 */
export const SLICE_ROWS = 250;
/**
 * The shortest pause after each slice: longer than GroupCommit's longest pause between two tries
 * for the lock (20 ms), so a small write of the request thread that found the lock taken gets it
 * before the next slice does. The pause is at least as long as the slice took, too: on a loaded
 * machine timers fire late and slices take longer, and the lock is then still free at least half
 * the time.
 */
export const SLICE_PAUSE_MS = 30;

/** The kinds of rows a write makes many of, in the order a transaction writes them. */
const MANY = ['memories', 'snapshots', 'captures', 'entries', 'autoEdges'] as const;

interface Slice {
  write: KnowledgeWrite;
  /** The position of the slice's first entry in the whole write's entries. */
  entryOffset: number;
}

/**
 * Cuts a write into slices of at most `size` rows, in the order one transaction writes them, so
 * what a row refers to (the run of a capture, the source of an entry, the snapshots of an edge)
 * is always in its slice or an earlier one. The run and the source go in the first slice; the
 * job's output, the write's last word, in the last.
 */
export function slicesOf(w: KnowledgeWrite, size = SLICE_ROWS): Slice[] {
  const slices: Slice[] = [];
  let current: Slice = { write: { run: w.run, source: w.source }, entryOffset: 0 };
  let rows = 0;
  for (const kind of MANY) {
    const items: unknown[] = w[kind] ?? [];
    for (let i = 0; i < items.length;) {
      const take = Math.min(size - rows, items.length - i);
      if (kind === 'entries' && current.write.entries === undefined) current.entryOffset = i;
      const rowsOfKind = ((current.write as Record<string, unknown[]>)[kind] ??= []);
      rowsOfKind.push(...items.slice(i, i + take));
      i += take;
      rows += take;
      if (rows === size) {
        slices.push(current);
        current = { write: {}, entryOffset: 0 };
        rows = 0;
      }
    }
  }
  slices.push(current);
  (slices.at(-1) as Slice).write.job = w.job;
  return slices;
}

/**
 * Writes a large write (a knowledge ingest, an ingest with memories, a long crystallize) in
 * slices, each its own short transaction, pausing after each so that other connections' writes
 * get the lock in between (issue 46): they wait tens of milliseconds, not the whole write.
 *
 * All or nothing still holds for the outcome: if a slice fails (or the job's output is refused
 * in the last one), the slices already committed are deleted again before the error is
 * answered. While the write is under way its account can see the part already written (the
 * source's entries growing, say), for the seconds the write takes; no other account can. See
 * docs/decisions.md.
 */
export async function writeInSlices(
  db: SqliteDatabase,
  store: SqliteKnowledgeStore,
  accountId: string,
  w: KnowledgeWrite,
): Promise<{ edges: Edge[] }> {
  const edges: Edge[] = [];
  const written: KnowledgeWrite[] = [];
  try {
    let tookMs = 0;
    for (const [n, slice] of slicesOf(w).entries()) {
      if (n > 0) await sleep(Math.max(SLICE_PAUSE_MS, tookMs));
      const started = performance.now();
      edges.push(...(await store.writeSlice(accountId, slice.write, slice.entryOffset)).edges);
      tookMs = performance.now() - started;
      // Only once committed: a failed slice rolled back, and its ids may name rows not its own.
      written.push(slice.write);
    }
  } catch (error) {
    await undo(db, accountId, written);
    throw error;
  }
  return { edges };
}

/** Deletes what the slices wrote, newest first, a slice a transaction. */
async function undo(db: SqliteDatabase, accountId: string, slices: KnowledgeWrite[]): Promise<void> {
  const deleteFrom = (table: string) => db.prepare(`DELETE FROM ${table} WHERE id = ? AND account_id = ?`);
  const statements = {
    autoEdges: deleteFrom('edges'),
    entries: deleteFrom('knowledge_entries'),
    captures: deleteFrom('captures'),
    snapshots: deleteFrom('snapshots'),
    memories: deleteFrom('memories'),
  };
  const sourceAndRun = [deleteFrom('knowledge_sources'), deleteFrom('crystallize_runs')];
  for (const slice of slices.reverse()) {
    await retryWhileBusy(() =>
      db
        .transaction(() => {
          for (const kind of [...MANY].reverse()) {
            for (const row of (slice[kind] ?? []) as { id: string }[]) statements[kind].run(row.id, accountId);
          }
          if (slice.source) sourceAndRun[0]?.run(slice.source.id, accountId);
          if (slice.run) sourceAndRun[1]?.run(slice.run.id, accountId);
        })
        .immediate(),
    );
    await sleep(SLICE_PAUSE_MS);
  }
}

/** Runs `work`, trying again while another connection holds the lock (busy_timeout may be 0). */
async function retryWhileBusy(work: () => void): Promise<void> {
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY')) throw error;
      await sleep(SLICE_PAUSE_MS);
    }
  }
}
