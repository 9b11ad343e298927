import type { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../module-worker.js';
import type { ParsedQuery, SearchScope, TextMatches } from '../search-store.js';
import { withMatching, type RankedMatches } from './fts-search.js';

/** What OffThreadFts sends its worker (fts-worker.ts), and what it answers. */
type FtsQuestion =
  | { kind: 'rank'; scope: SearchScope; query: ParsedQuery; limit: number }
  | { kind: 'matching'; scope: SearchScope; query: ParsedQuery; ids: string[] };
export type FtsRequest = (FtsQuestion & { id: number }) | { id: number; kind: 'close' };
export type FtsAnswer =
  | { id: number; ranked: RankedMatches }
  | { id: number; ids: string[] }
  | { id: number; error: { message: string; name: string; code?: string | undefined } };

/**
 * FTS5's queries for brains past SEEK_BRAIN_MAX (fts-search.ts), made by a worker thread with a
 * read-only connection of its own to the same file. FTS5 ranks every match of the index before
 * it keeps the brain's, so such a query's cost grows with everything stored (8 three-letter
 * prefixes: 0.4 s at 100,000 snapshots), and better-sqlite3 is synchronous: on the request
 * thread it held every other request behind it. The worker sees what was committed, as another
 * process would (every write is committed before it is acknowledged). It starts at the first
 * such query and stays; one query at a time.
 */
export class OffThreadFts {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (answer: FtsAnswer) => void; reject: (e: Error) => void }>();

  constructor(private readonly path: string) {}

  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number): Promise<TextMatches> {
    const answer = await this.ask({ kind: 'rank', scope, query, limit });
    const ranked = (answer as { ranked: RankedMatches }).ranked;
    return withMatching(ranked, async (ids) => {
      const found = await this.ask({ kind: 'matching', scope, query, ids });
      return (found as { ids: string[] }).ids;
    });
  }

  /** Stops the worker (the store is closing); queries under way fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    worker.ref();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ id: 0, kind: 'close' } satisfies FtsRequest);
    await exited;
  }

  private ask(request: FtsQuestion): Promise<FtsAnswer> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<FtsAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id } satisfies FtsRequest);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = moduleWorker(import.meta.url, 'fts-worker', { path: this.path });
    worker.unref();
    worker.on('message', (answer: FtsAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error.message), answer.error));
      else waiting.resolve(answer);
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the full-text search worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}
