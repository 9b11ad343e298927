import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../module-worker.js';
import type { Edge } from '../../model.js';
import type { KnowledgeWrite } from '../knowledge-store.js';
import type { WriteAnswer, WriteRequest } from './knowledge-write-messages.js';
import type { SqliteOptions } from './open-database.js';

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
 * file: still one transaction, all of it or nothing (design §11), while the event loop answers
 * other requests. To this process the commit is one by another connection, as by the CLI or a
 * second server: the read caches see it through `PRAGMA data_version`, the text index through
 * its change log. A write of this process that comes meanwhile waits for the lock (busy_timeout),
 * as it would behind another process. The worker starts at the first large write and stays.
 */
export class OffThreadWrites {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (edges: Edge[]) => void; reject: (e: Error) => void }>();
  private readonly underWay = new Set<Promise<Edge[]>>();

  constructor(
    private readonly path: string,
    private readonly options: SqliteOptions,
  ) {}

  write(accountId: string, write: KnowledgeWrite): Promise<{ edges: Edge[] }> {
    const worker = this.started();
    const id = this.nextId++;
    const written = new Promise<Edge[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, accountId, write } satisfies WriteRequest);
    });
    this.underWay.add(written);
    const forget = () => this.underWay.delete(written);
    written.then(forget, forget);
    return written.then((edges) => ({ edges }));
  }

  /** Waits for the writes under way, then closes the worker's connection. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await Promise.allSettled(this.underWay);
    this.worker = undefined;
    // Held until it has exited: a process otherwise idle would end before the promise settles.
    worker.ref();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ id: 0, close: true } satisfies WriteRequest);
    await exited;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = moduleWorker(import.meta.url, 'knowledge-write-worker', { path: this.path, options: this.options });
    worker.unref();
    worker.on('message', (answer: WriteAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error.message), answer.error));
      else waiting.resolve(answer.edges as Edge[]);
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the knowledge write worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}
