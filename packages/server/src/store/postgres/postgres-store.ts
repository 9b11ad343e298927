import pg from 'pg';
import type { Store, StoreCapabilities } from '../store.js';
import { KeyCache } from './key-cache.js';
import { postgresMigrations } from './migrations.js';
import { snapgraphTypes } from './pg-types.js';
import { runPostgresMigrations } from './run-migrations.js';
import { PostgresKeyStore } from './keys.js';
import { PostgresBrainStore } from './brains.js';
import { PostgresSnapshotStore } from './snapshots.js';
import { PostgresEdgeStore } from './edges.js';
import { PostgresSearchStore } from './search.js';
import { PostgresLinkStore } from './links.js';
import { PostgresVectorStore } from './vectors.js';
import { PostgresKnowledgeStore } from './knowledge.js';
import { PostgresMemoryStore } from './memories.js';
import { PostgresJobStore } from './jobs.js';
import { PostgresIdempotencyStore } from './idempotency.js';
import { PostgresTransferStore } from './transfer.js';

export interface PostgresOptions {
  /** Connections per instance (DATABASE_POOL_MAX). */
  poolMax?: number;
  /** A statement running longer is cancelled (DATABASE_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
}

/**
 * Scale-out storage: the same Store on PostgreSQL, through a pool of connections. This class
 * only opens, composes and closes: each resource lives in its own file (keys.ts, brains.ts,
 * snapshots.ts, edges.ts, …), named as on SQLite.
 */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly capabilities: StoreCapabilities = { storesNul: false };
  readonly search: PostgresSearchStore;
  readonly knowledge: PostgresKnowledgeStore;
  readonly memories: PostgresMemoryStore;
  readonly links: PostgresLinkStore;
  readonly work: PostgresLinkStore;
  readonly vectors: PostgresVectorStore;
  readonly jobs: PostgresJobStore;
  readonly idempotency: PostgresIdempotencyStore;
  readonly transfer: PostgresTransferStore;
  private readonly pool: pg.Pool;
  private readonly keyCache: KeyCache;
  readonly keys: PostgresKeyStore;
  readonly brains: PostgresBrainStore;
  readonly snapshots: PostgresSnapshotStore;
  readonly edges: PostgresEdgeStore;

  constructor(connectionString: string, options: PostgresOptions = {}) {
    this.keyCache = new KeyCache(connectionString, () => this.schemaVersion());
    this.pool = new pg.Pool({
      connectionString,
      max: options.poolMax ?? 10,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 5_000,
      types: snapgraphTypes,
      // Timestamps print in UTC, so the type parser can turn them into ISO 8601 directly.
      options: `-c TimeZone=UTC -c statement_timeout=${options.statementTimeoutMs ?? 10_000}`,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.keys = new PostgresKeyStore(this.pool, this.keyCache);
    this.brains = new PostgresBrainStore(this.pool);
    this.snapshots = new PostgresSnapshotStore(this.pool);
    this.edges = new PostgresEdgeStore(this.pool);
    this.search = new PostgresSearchStore(this.pool);
    this.links = this.work = new PostgresLinkStore(this.pool);
    this.vectors = new PostgresVectorStore(this.pool);
    this.knowledge = new PostgresKnowledgeStore(this.pool);
    this.jobs = new PostgresJobStore(this.pool);
    this.idempotency = new PostgresIdempotencyStore(this.pool);
    this.memories = new PostgresMemoryStore(this.pool);
    this.transfer = new PostgresTransferStore(this.pool);
  }

  async migrate(): Promise<number> {
    return runPostgresMigrations(this.pool, postgresMigrations);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.keyCache.close();
    await this.pool.end();
  }

  private async schemaVersion(): Promise<number> {
    const { rows } = await this.pool.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    return rows[0]?.version ?? 0;
  }
}
