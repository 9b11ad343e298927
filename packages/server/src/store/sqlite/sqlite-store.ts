import type { ImmediateReads, Store, StoreCapabilities } from '../store.js';
import { sqliteMigrations } from './migrations.js';
import { openSqliteDatabase, type SqliteDatabase, type SqliteOptions } from './open-database.js';
import { GroupCommit } from './group-commit.js';
import { runSqliteMigrations } from './run-migrations.js';
import { SqliteKeyStore } from './keys.js';
import { SqliteBrainStore } from './brains.js';
import { SqliteSnapshotStore } from './snapshots.js';
import { SqliteEdgeStore } from './edges.js';
import { SqliteSearchStore } from './search.js';
import { SqliteLinkStore } from './links.js';
import { SqliteVectorStore } from './vectors.js';
import { SqliteKnowledgeStore } from './knowledge.js';
import { OffThreadWrites } from './off-thread-writes.js';
import { SqliteJobStore } from './jobs.js';
import { SqliteIdempotencyStore } from './idempotency.js';
import { SqliteMemoryStore } from './memories.js';
import { SqliteTransferStore } from './transfer.js';

/**
 * The embedded default: one SQLite file, every statement prepared once, and every write
 * through group commit (see GroupCommit). This class only opens, composes and closes: each
 * resource lives in its own file (keys.ts, brains.ts, snapshots.ts, edges.ts, …).
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly capabilities: StoreCapabilities;
  readonly search: SqliteSearchStore;
  readonly knowledge: SqliteKnowledgeStore;
  readonly memories: SqliteMemoryStore;
  readonly links: SqliteLinkStore;
  readonly work: SqliteLinkStore;
  readonly vectors: SqliteVectorStore;
  readonly jobs: SqliteJobStore;
  readonly idempotency: SqliteIdempotencyStore;
  readonly transfer: SqliteTransferStore;
  private readonly db: SqliteDatabase;
  private readonly writes: GroupCommit;
  readonly keys: SqliteKeyStore;
  readonly brains: SqliteBrainStore;
  readonly snapshots: SqliteSnapshotStore;
  readonly edges: SqliteEdgeStore;
  private readonly offThread: OffThreadWrites | undefined;
  private readonly busyTimeoutMs: number;

  constructor(path: string, options: SqliteOptions = {}) {
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    // The request thread never waits for the lock inside SQLite (GroupCommit tries again later).
    this.db = openSqliteDatabase(path, { ...options, busyTimeoutMs: 0 });
    this.search = new SqliteSearchStore(this.db, path);
    this.writes = new GroupCommit(this.db);
    this.keys = new SqliteKeyStore(this.db, this.writes);
    this.brains = new SqliteBrainStore(this.db, this.writes);
    this.snapshots = new SqliteSnapshotStore(this.db, this.writes);
    this.edges = new SqliteEdgeStore(this.db, this.writes);
    this.links = this.work = new SqliteLinkStore(this.db, this.writes);
    this.vectors = new SqliteVectorStore(this.db, this.writes);
    const inMemory = path === ':memory:' || path === '';
    this.offThread = inMemory ? undefined : new OffThreadWrites(path, options);
    this.knowledge = new SqliteKnowledgeStore(this.db, this.writes, this.offThread);
    this.jobs = new SqliteJobStore(this.db, this.writes);
    this.idempotency = new SqliteIdempotencyStore(this.db, this.writes);
    this.memories = new SqliteMemoryStore(this.db, this.writes, path);
    this.transfer = new SqliteTransferStore(this.db, this.writes, path);
    this.capabilities = { storesNul: true, immediateReads: immediateReads(this.db, this.keys, this.snapshots) };
  }

  async migrate(): Promise<number> {
    // At start, before any request: waiting for a CLI's lock here holds up nothing.
    this.db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    try {
      return runSqliteMigrations(this.db, sqliteMigrations);
    } finally {
      this.db.pragma('busy_timeout = 0');
    }
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.offThread?.close();
    this.writes.flush();
    await this.search.close();
    if (this.db.open) this.db.close();
  }
}

/**
 * The reads the GET-one fast path makes, answered synchronously. readTogether runs them in one
 * read transaction: the file locks that SQLite takes and releases around every statement run
 * outside a transaction — four fcntl calls, about 1.4 µs — are taken once for all of them.
 */
function immediateReads(db: SqliteDatabase, keys: SqliteKeyStore, snapshots: SqliteSnapshotStore): ImmediateReads {
  const together = db.transaction((read: () => unknown) => read()).deferred;
  return {
    readTogether: together as <T>(read: () => T) => T,
    findApiKeyByHash: (keyHash) => keys.findByHashNow(keyHash),
    getSnapshotJson: (accountId, id) => snapshots.getJsonNow(accountId, id),
  };
}
