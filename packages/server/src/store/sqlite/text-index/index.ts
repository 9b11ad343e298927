import { Worker } from 'node:worker_threads';
import { moduleWorker } from '../../../module-worker.js';
import { SNAPSHOT_TYPES } from '../../../model.js';
import type { SqliteDatabase } from '../open-database.js';
import { buildBaseSegment, type BaseSegment } from './build.js';
import { CHANGES_KEPT, ChangeLog } from './changes.js';
import { InMemoryIndex } from './text-index.js';
import type { TextIndexEvent, TextIndexStatus } from '../../search-store.js';

export { SEARCH_CHANGES_SQL } from './changes.js';
export { SQLITE_FIELD_WEIGHTS } from './bm25.js';
export type { IndexScope, Ranking, InMemoryIndex } from './text-index.js';

export interface LiveTextIndexOptions {
  /** The database file, for the worker that builds the index; `:memory:` or '' builds in this thread. */
  path: string;
}

/**
 * Log entries a search applies before it answers (about 0.1 ms each on a quiet machine, several
 * times that on a loaded one): with more pending, FTS5 answers, and they are applied off the
 * request path, BACKGROUND_CATCH_UP a turn of the event loop. Each step holds the loop while it
 * runs: a large write's thousands of rows, applied 200 a step, held it 80–140 ms a step under a
 * CPU profile, and /healthz waited behind the steps (docs/performance.md, "Large writes beside
 * small ones").
 */
const REQUEST_CATCH_UP = 50;
const BACKGROUND_CATCH_UP = 50;
/** More changes than this behind, and a fresh base is built instead of applying them one by one. */
const REBUILD_BACKLOG = 10_000;
/** The delta is folded into a fresh base once it holds this share of the base's documents… */
const REBUILD_GROWTH = 0.2;
/** …or once this share of all documents are removed or replaced ones. */
const REBUILD_DEAD_SHARE = 0.25;
/** Files of at most this many rows are built in the thread that asks, at once. */
const INLINE_BUILD_ROWS = 2_000;
/** Changes are applied off the request path this often, and an overgrown log pruned. */
const UPKEEP_INTERVAL_MS = 1_000;
const BUILD_RETRY_MS = 60_000;

/**
 * The SQLite store's in-memory text index (InMemoryIndex), kept up to date from the change log and
 * built (again) from FTS5, in a worker when large. `current()` is the one way to reach it: it
 * is caught up with every committed change first, so a search sees every acknowledged write.
 * When that cannot be done at once (no index yet, a build under way, a large backlog, an error),
 * `current()` answers undefined and FTS5 answers the query instead: the same ranking, slower.
 */
export class LiveTextIndex {
  private index: InMemoryIndex | undefined;
  /** The change log position the index reflects. */
  private applied = 0;
  private building: Worker | 'inline' | undefined;
  private buildStarted = 0;
  private builds = 0;
  /** When a build last failed: the next is not tried for a minute. */
  private failedAt = -Infinity;
  private catchUpScheduled = false;
  private closed = false;
  private readonly log: ChangeLog;
  private readonly terms = new Map<string, string[]>();
  private readonly upkeep: NodeJS.Timeout;
  private readonly listeners: ((event: TextIndexEvent) => void)[] = [];

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: LiveTextIndexOptions,
  ) {
    this.log = new ChangeLog(db);
    this.upkeep = setInterval(() => this.keepUp(), UPKEEP_INTERVAL_MS).unref();
  }

  /** The index, caught up with every committed change, or undefined (FTS5 answers). */
  current(): InMemoryIndex | undefined {
    // Inside a transaction of this connection, uncommitted rows would be applied as committed.
    if (this.closed || this.db.inTransaction) return undefined;
    try {
      if (this.index === undefined) this.build();
      return this.index !== undefined && this.catchUp(true) ? this.index : undefined;
    } catch (error) {
      this.tell({ kind: 'failed', message: `catching up: ${String(error)}` });
      return undefined;
    }
  }

  /** The single term FTS5 makes of a query word, or undefined (none, or several: a phrase). */
  termOf(word: string): string | undefined {
    let terms = this.terms.get(word);
    if (terms === undefined) {
      terms = this.log.termsOf(word);
      if (this.terms.size >= 100_000) this.terms.clear();
      this.terms.set(word, terms);
    }
    return terms.length === 1 ? terms[0] : undefined;
  }

  /** Whether the index is answering queries, how many snapshots it holds, how often it was built. */
  status(): TextIndexStatus {
    return { ready: this.index !== undefined, documents: this.index?.documents ?? 0, builds: this.builds };
  }

  /** Calls `listener` after each build, and on each failure (the app logs them). */
  onEvent(listener: (event: TextIndexEvent) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.upkeep);
    if (this.building instanceof Worker) void this.building.terminate();
    this.index = undefined;
  }

  /**
   * Applies the log entries committed since the index's position, in one read transaction; true
   * when the index is then current. A search (`onRequest`) applies at most REQUEST_CATCH_UP and
   * leaves a longer backlog to the background, which applies BACKGROUND_CATCH_UP at a time. A gap
   * in the log (another process pruned past this one) or a backlog over REBUILD_BACKLOG starts a
   * build instead.
   */
  private catchUp(onRequest: boolean): boolean {
    const index = this.index as InMemoryIndex;
    return this.db
      .transaction(() => {
        const latest = this.log.latest();
        if (latest <= this.applied) return true;
        if (this.log.oldest() > this.applied + 1 || latest - this.applied > REBUILD_BACKLOG) {
          this.build();
          return this.index !== index && this.applied >= latest; // a build in this thread is current
        }
        if (onRequest && latest - this.applied > REQUEST_CATCH_UP) {
          this.scheduleCatchUp();
          return false;
        }
        const upTo = Math.min(latest, this.applied + BACKGROUND_CATCH_UP);
        for (const row of this.log.read(this.log.changedRows(this.applied, upTo))) index.apply(row);
        index.setStatistics(this.log.statistics());
        this.applied = upTo;
        const { added, baseDocs, deadShare } = index.growth;
        if (added > Math.max(INLINE_BUILD_ROWS, REBUILD_GROWTH * baseDocs) || deadShare > REBUILD_DEAD_SHARE)
          this.build();
        if (upTo === latest) return true;
        this.scheduleCatchUp();
        return false;
      })
      .deferred();
  }

  private scheduleCatchUp(): void {
    if (this.catchUpScheduled) return;
    this.catchUpScheduled = true;
    setImmediate(() => {
      this.catchUpScheduled = false;
      this.keepUp();
    });
  }

  /** Off the request path: applies what has changed, and prunes a log nobody prunes. */
  private keepUp(): void {
    if (this.closed || this.db.inTransaction) return;
    try {
      if (this.index !== undefined) this.catchUp(false);
      // Builds prune the log; a process that writes and never searches would not (a chunk a tick).
      const latest = this.log.latest();
      if (this.building === undefined && latest - this.log.oldest() > 2 * CHANGES_KEPT) {
        this.log.pruneSome(latest - CHANGES_KEPT);
      }
    } catch {
      // Busy or closing: the next search or tick tries again.
    }
  }

  /** Builds a fresh base segment, in a worker unless the file is small; the old index serves meanwhile. */
  private build(): void {
    if (this.building !== undefined || Date.now() - this.failedAt < BUILD_RETRY_MS) return;
    this.buildStarted = performance.now();
    try {
      const memory = this.options.path === ':memory:' || this.options.path === '';
      if (!memory && this.highestRowid() > INLINE_BUILD_ROWS) {
        this.buildInWorker();
        return;
      }
      this.building = 'inline';
      this.install(buildBaseSegment(this.db, SNAPSHOT_TYPES), false);
    } catch (error) {
      // A database not yet migrated, say: FTS5 answers, and a build is tried again in a minute.
      this.failed(error);
    } finally {
      if (this.building === 'inline') this.building = undefined;
    }
  }

  /** An upper bound of the rows to index, read in constant time. */
  private highestRowid(): number {
    return this.db.prepare('SELECT coalesce(max(rowid), 0) FROM snapshot_search_rows').pluck().get() as number;
  }

  private buildInWorker(): void {
    const worker = moduleWorker(import.meta.url, 'build-worker', { path: this.options.path, types: SNAPSHOT_TYPES });
    // A process that ends (the CLI) does not wait for a build it no longer needs.
    worker.unref();
    this.building = worker;
    worker.once('message', (segment: BaseSegment) => {
      if (this.closed) return;
      try {
        this.install(segment, true);
      } catch (error) {
        this.failed(error);
      }
    });
    worker.once('error', (error) => this.failed(error));
    worker.once('exit', () => {
      if (this.building === worker) this.building = undefined;
    });
  }

  private install(segment: BaseSegment, inWorker: boolean): void {
    this.index = new InMemoryIndex(segment, SNAPSHOT_TYPES);
    this.applied = segment.seq;
    this.builds++;
    const seconds = (performance.now() - this.buildStarted) / 1000;
    this.tell({ kind: 'built', documents: this.index.documents, seconds, inWorker });
  }

  private failed(error: unknown): void {
    this.failedAt = Date.now();
    this.tell({ kind: 'failed', message: `building: ${String(error)}` });
  }

  private tell(event: TextIndexEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
