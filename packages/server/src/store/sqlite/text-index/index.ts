import { Worker } from 'node:worker_threads';
import { SNAPSHOT_TYPES } from '../../../model.js';
import type { SqliteDatabase } from '../open-database.js';
import { buildBaseSegment, pruneChanges, type BaseSegment } from './build.js';
import { ChangeLog } from './changes.js';
import { TextIndex } from './text-index.js';
import type { TextIndexBuilt, TextIndexStatus } from '../../search-store.js';

export { SEARCH_CHANGES_SQL } from './changes.js';
export { SQLITE_FIELD_WEIGHTS } from './bm25.js';
export type { IndexScope, Ranking, TextIndex } from './text-index.js';
export type { TextIndexBuilt, TextIndexStatus } from '../../search-store.js';

export interface LiveTextIndexOptions {
  /** The database file, for the worker that builds the index; `:memory:` builds in this thread. */
  path: string;
  /** Indexes of at most this many rows are built in this thread, at once (default 2,000). */
  inlineBuildRows?: number;
}

/** More changes than this to catch up with at once, and the index is built again instead. */
const CATCH_UP_MAX = 5_000;
/** The delta is folded into a fresh base once it holds this share of the base's documents… */
const REBUILD_GROWTH = 0.2;
/** …or once this share of all documents are removed or replaced ones. */
const REBUILD_DEAD_SHARE = 0.25;
/** Changes are applied off the request path this often, and the log pruned. */
const UPKEEP_INTERVAL_MS = 1_000;
const INLINE_BUILD_ROWS = 2_000;
const BUILD_RETRY_MS = 60_000;

/**
 * The SQLite store's in-memory text index (TextIndex), kept up to date from the change log and
 * built (again) from FTS5 in a worker. `current()` is the one way to reach it: it is caught up
 * with every committed change first, so a search sees every acknowledged write. While there is
 * no index (the first build, or a rebuild after more changes than are worth applying one by
 * one), `current()` answers undefined and FTS5 answers the query instead: the same ranking,
 * only slower.
 */
export class LiveTextIndex {
  private index: TextIndex | undefined;
  /** The change log position the index reflects. */
  private applied = 0;
  private building: Worker | 'inline' | undefined;
  private readonly log: ChangeLog;
  private readonly terms = new Map<string, string[]>();
  private readonly upkeep: NodeJS.Timeout;
  private closed = false;
  private builds = 0;
  /** A build in this thread leaves the log's pruning to the next tick (outside any transaction). */
  private prunePending = false;
  private buildStarted = 0;
  private readonly builtListeners: ((built: TextIndexBuilt) => void)[] = [];
  /** When a build last failed: the next is not tried for a minute (FTS5 answers meanwhile). */
  private failedAt = -Infinity;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: LiveTextIndexOptions,
  ) {
    this.log = new ChangeLog(db);
    this.upkeep = setInterval(() => this.keepUp(), UPKEEP_INTERVAL_MS).unref();
  }

  /** The index, caught up with every committed change, or undefined while it is being built. */
  current(): TextIndex | undefined {
    if (this.closed) return undefined;
    if (this.index === undefined) {
      this.build();
      if (this.index === undefined) return undefined;
    }
    return this.catchUp() ? this.index : undefined;
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

  /** Whether the index is answering queries, and how many snapshots it holds (for /metrics). */
  status(): TextIndexStatus {
    return { ready: this.index !== undefined, documents: this.index?.documents ?? 0, builds: this.builds };
  }

  /** Calls `listener` after each build, with what it took (the app logs it). */
  onBuilt(listener: (built: TextIndexBuilt) => void): void {
    this.builtListeners.push(listener);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.upkeep);
    if (this.building instanceof Worker) void this.building.terminate();
    this.index = undefined;
  }

  /**
   * Applies the changes committed since the index was built or last caught up. False when that
   * cannot be done at once (too many, or some already pruned from the log): a build is started.
   */
  private catchUp(): boolean {
    const index = this.index as TextIndex;
    return this.db
      .transaction(() => {
        const latest = this.log.latest();
        if (latest <= this.applied) return true;
        const rows = this.log.oldest() > this.applied + 1 ? undefined : this.log.changedRows(this.applied, latest);
        if (rows === undefined || rows.length > CATCH_UP_MAX) {
          this.index = undefined;
          this.build();
          return this.index !== undefined; // built at once when small
        }
        for (const row of this.log.read(rows)) index.apply(row);
        index.setStatistics(this.log.statistics());
        this.applied = latest;
        const { added, baseDocs, deadShare } = index.growth;
        if (added > Math.max(INLINE_BUILD_ROWS, REBUILD_GROWTH * baseDocs) || deadShare > REBUILD_DEAD_SHARE)
          this.build();
        return true;
      })
      .deferred();
  }

  /** Off the request path: applies what has changed, and prunes the log after a build in this thread. */
  private keepUp(): void {
    if (this.index === undefined || this.closed) return;
    try {
      this.catchUp();
      if (this.prunePending) {
        pruneChanges(this.log, this.applied);
        this.prunePending = false;
      }
    } catch {
      // Busy or closing: the next search or tick tries again.
    }
  }

  /** Builds a fresh base segment, in a worker unless the index is small; the old index serves meanwhile. */
  private build(): void {
    if (this.building !== undefined || Date.now() - this.failedAt < BUILD_RETRY_MS) return;
    this.buildStarted = performance.now();
    try {
      if (this.options.path !== ':memory:' && this.rows() > (this.options.inlineBuildRows ?? INLINE_BUILD_ROWS)) {
        this.buildInWorker();
        return;
      }
      this.building = 'inline';
      this.install(buildBaseSegment(this.db, SNAPSHOT_TYPES), false);
      this.prunePending = true;
    } catch {
      // FTS5 answers instead (a database not yet migrated, say); tried again in a minute.
      this.failedAt = Date.now();
    } finally {
      if (this.building === 'inline') this.building = undefined;
    }
  }

  private rows(): number {
    return this.db.prepare('SELECT coalesce(max(rowid), 0) FROM snapshot_search_rows').pluck().get() as number;
  }

  private buildInWorker(): void {
    const worker = workerFor(this.options.path);
    this.building = worker;
    worker.once('message', (segment: BaseSegment) => {
      if (!this.closed) this.install(segment, true);
    });
    worker.once('exit', () => {
      if (this.building === worker) this.building = undefined;
    });
    worker.once('error', () => {
      // FTS5 keeps answering meanwhile.
      this.failedAt = Date.now();
    });
  }

  private install(segment: BaseSegment, inWorker: boolean): void {
    this.index = new TextIndex(segment, SNAPSHOT_TYPES);
    this.applied = segment.seq;
    this.builds++;
    const built = {
      documents: this.index.documents,
      seconds: (performance.now() - this.buildStarted) / 1000,
      inWorker,
    };
    for (const listener of this.builtListeners) listener(built);
  }
}

/**
 * The build worker: the compiled file, or under tsx (the tests run the TypeScript sources) the
 * TypeScript one, loaded after registering tsx in the worker (a worker does not inherit it).
 */
function workerFor(path: string): Worker {
  const workerData = { path, types: SNAPSHOT_TYPES };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./build-worker.js', import.meta.url), { workerData });
  const source = new URL('./build-worker.ts', import.meta.url).href;
  const code = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(code, { eval: true, workerData });
}
