import { moduleWorker } from '../../module-worker.js';
import type { ParsedQuery, SearchScope, TextMatches } from '../search-store.js';
import { withMatching, type RankedMatches } from './fts-search.js';
import { WorkerCalls, type WorkerAnswer, type WorkerRequest } from './worker-calls.js';

type FtsCall =
  | { kind: 'rank'; scope: SearchScope; query: ParsedQuery; limit: number }
  | { kind: 'matching'; scope: SearchScope; query: ParsedQuery; ids: string[] };
type FtsResult = { ranked: RankedMatches } | { ids: string[] };
/** What OffThreadFts sends its worker (fts-worker.ts), and what it answers. */
export type FtsRequest = WorkerRequest<FtsCall>;
export type FtsAnswer = WorkerAnswer<FtsResult>;

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
  private readonly calls: WorkerCalls<FtsCall, FtsResult>;

  constructor(path: string) {
    this.calls = new WorkerCalls(
      () => moduleWorker(import.meta.url, 'fts-worker', { path }),
      'the full-text search worker',
    );
  }

  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number): Promise<TextMatches> {
    const { ranked } = (await this.calls.call({ kind: 'rank', scope, query, limit })) as { ranked: RankedMatches };
    return withMatching(ranked, async (ids) => {
      const found = (await this.calls.call({ kind: 'matching', scope, query, ids })) as { ids: string[] };
      return found.ids;
    });
  }

  /** Waits for the queries under way, then stops the worker (the store is closing). */
  close(): Promise<void> {
    return this.calls.close();
  }
}
