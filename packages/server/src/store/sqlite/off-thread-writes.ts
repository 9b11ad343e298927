import { stringifyInTurns } from '../../json-in-turns.js';
import { moduleWorker } from '../../module-worker.js';
import type { Edge } from '../../model.js';
import type { KnowledgeWrite } from '../knowledge-store.js';
import type { SqliteOptions } from './open-database.js';
import { WorkerCalls } from './worker-calls.js';

/**
 * Rows (snapshots, entries, edges, memories, captures) from which a run is written off the event
 * loop. better-sqlite3 is synchronous: one transaction of a 900,000-character document's
 * thousands of rows (and their full-text triggers) held the loop for half a second on a quiet
 * machine and five on a busy one, /healthz waiting behind it (issue 34). Smaller writes stay in
 * this thread's group commit, where they cost less than a message to a worker.
 */
export const OFF_THREAD_ROWS = 500;

/** How many rows a write makes: what its transaction's time grows with. */
export function rowsOf(write: KnowledgeWrite): number {
  return (
    (write.snapshots?.length ?? 0) +
    (write.entries?.length ?? 0) +
    (write.autoEdges?.length ?? 0) +
    (write.memories?.length ?? 0) +
    (write.captures?.length ?? 0)
  );
}

/**
 * Large knowledge writes, made by a worker thread with a connection of its own to the same
 * file, in short slices that let other writes take the lock in between (writeInSlices; all of
 * it or nothing, design §11: a failed write's slices are deleted again), while the event loop
 * answers other requests. To this process the commit is one by another connection, as by the CLI or a
 * second server: the read caches see it through `PRAGMA data_version`, the text index through
 * its change log. A write of this process that comes meanwhile waits for the lock off the event
 * loop (GroupCommit tries again every few ms), as it would behind another process. The worker
 * starts at the first large write and stays.
 */
export class OffThreadWrites {
  private readonly calls: WorkerCalls<{ accountId: string; writeJson: string }, { edges: unknown[] }>;

  constructor(path: string, options: SqliteOptions) {
    this.calls = new WorkerCalls(
      () => moduleWorker(import.meta.url, 'knowledge-write-worker', { path, options }),
      'the knowledge write worker',
    );
  }

  /** The write is sent as JSON made in turns of the event loop (stringifyInTurns says why). */
  async write(accountId: string, write: KnowledgeWrite): Promise<{ edges: Edge[] }> {
    const { edges } = await this.calls.call({ accountId, writeJson: await stringifyInTurns(write) });
    return { edges: edges as Edge[] };
  }

  /** Waits for the writes under way, then closes the worker's connection. */
  close(): Promise<void> {
    return this.calls.close();
  }
}
