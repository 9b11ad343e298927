import pg from 'pg';
import type {
  Account,
  ApiKeyRecord,
  Brain,
  BrainWithCounts,
  Edge,
  JsonRow,
  Page,
  PageOf,
  Snapshot,
} from '../../model.js';
import { EDGE_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import { edgeJsonArguments } from '../json-columns.js';
import { ISO_MS, snapshotJson } from './snapshot-json.js';
import { PostgresSearchStore } from './search.js';
import { PostgresLinkStore } from './links.js';
import { PostgresVectorStore } from './vectors.js';
import { PostgresKnowledgeStore } from './knowledge.js';
import { PostgresMemoryStore } from './memories.js';
import { snapshotValues } from './snapshot-values.js';
import { PostgresJobStore } from './jobs.js';
import { PostgresIdempotencyStore } from './idempotency.js';
import { PostgresTransferStore } from './transfer.js';
import type { EdgeQuery, KeyProvisioning, SnapshotQuery, Store } from '../store.js';
import type { MaybePromise } from '../../maybe.js';
import { KeyCache } from './key-cache.js';
import { postgresMigrations } from './migrations.js';
import { nulAsBadRequest, translatePostgresError } from './pg-errors.js';
import { snapgraphTypes } from './pg-types.js';
import { runPostgresMigrations } from './run-migrations.js';
import { brainFromRow, canonicalPair, PENDING_WORK_COLUMNS, type BrainRow } from '../brain-rows.js';

export interface PostgresOptions {
  /** Connections per instance (DATABASE_POOL_MAX). */
  poolMax?: number;
  /** A statement running longer is cancelled (DATABASE_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
}

const snapshotColumns = SNAPSHOT_COLUMNS.join(', ');
const edgeColumns = EDGE_COLUMNS.join(', ');
const newestFirst = 'ORDER BY created_at DESC, id DESC';
const brainColumns = `b.id, b.account_id, b.name, b.auto_link, b.created_at, b.updated_at,
  (SELECT count(*) FROM snapshots s WHERE s.brain_id = b.id)::int AS snapshot_count,
  (SELECT count(*) FROM edges e WHERE e.brain_id = b.id)::int AS edge_count, ${PENDING_WORK_COLUMNS}`;
const snapshotJsonRow = `created_at, id, ${snapshotJson} AS json`;
const edgeJsonRow = `created_at, id, json_build_object(${edgeJsonArguments((c) =>
  c === 'created_at' || c === 'updated_at' ? `to_char(${c} AT TIME ZONE 'UTC', '${ISO_MS}')` : c,
)})::text AS json`;
const EDGE_CONFLICT = 'an edge of this edge_type already exists between these snapshots';

const snapshotInsertColumns = ['account_id', ...SNAPSHOT_COLUMNS];
const snapshotUpdateColumns = SNAPSHOT_COLUMNS.filter((c) => c !== 'id');

/** Every statement is named, so each pooled connection prepares it once and reuses the plan. */
const SQL = {
  insertAccount: 'INSERT INTO accounts (id, created_at) VALUES ($1, $2)',
  getAccount: 'SELECT id, created_at FROM accounts WHERE id = $1',
  insertBrain:
    'INSERT INTO brains (id, account_id, name, auto_link, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)',
  getBrainForUpdate: 'SELECT id FROM brains WHERE id = $1 AND account_id = $2 FOR UPDATE',
  updateBrain: 'UPDATE brains SET name = $3, auto_link = $4, updated_at = $5 WHERE id = $1 AND account_id = $2',
  hasBrain: 'SELECT 1 FROM brains WHERE id = $1 AND account_id = $2',
  hasSnapshot: 'SELECT 1 FROM snapshots WHERE id = $1 AND account_id = $2',
  getBrain: `SELECT ${brainColumns} FROM brains b WHERE b.id = $1 AND b.account_id = $2`,
  getBrainUnscoped: `SELECT ${brainColumns} FROM brains b WHERE b.id = $1`,
  listBrains: `SELECT ${brainColumns} FROM brains b WHERE b.account_id = $1 ORDER BY b.created_at DESC, b.id DESC LIMIT $2 OFFSET $3`,
  countBrains: 'SELECT count(*)::int AS n FROM brains WHERE account_id = $1',
  listAllBrains: `SELECT ${brainColumns} FROM brains b ORDER BY b.created_at DESC, b.id DESC LIMIT $1 OFFSET $2`,
  countAllBrains: 'SELECT count(*)::int AS n FROM brains',

  insertKey: `INSERT INTO api_keys (id, account_id, brain_id, key_hash, prefix, plan, rpm, burst, created_at, revoked_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  keyByHash: 'SELECT * FROM api_keys WHERE key_hash = $1',
  keyById: 'SELECT * FROM api_keys WHERE id = $1',
  keyByIdForUpdate: 'SELECT * FROM api_keys WHERE id = $1 FOR UPDATE',
  listKeys: 'SELECT * FROM api_keys ORDER BY created_at, id',
  listKeysOfAccount: 'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id',
  updateKey: 'UPDATE api_keys SET plan = $2, rpm = $3, burst = $4, revoked_at = $5 WHERE id = $1',
  countActiveKeys: 'SELECT count(*)::int AS n FROM api_keys WHERE revoked_at IS NULL',

  insertSnapshot: `INSERT INTO snapshots (${snapshotInsertColumns.join(', ')})
    VALUES (${snapshotInsertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
  getSnapshot: `SELECT ${snapshotColumns} FROM snapshots WHERE id = $1 AND account_id = $2`,
  getSnapshotJson: `SELECT ${snapshotJson} AS json FROM snapshots WHERE id = $1 AND account_id = $2`,
  getSnapshotForUpdate: `SELECT ${snapshotColumns} FROM snapshots WHERE id = $1 AND account_id = $2 FOR UPDATE`,
  listSnapshots: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 ${newestFirst} LIMIT $2 OFFSET $3`,
  countSnapshots: 'SELECT count(*)::int AS n FROM snapshots WHERE brain_id = $1',
  listSnapshotsAfter: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 AND (created_at, id) < ($2, $3) ${newestFirst} LIMIT $4`,
  listSnapshotsOfTypeAfter: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 AND type = $2 AND (created_at, id) < ($3, $4) ${newestFirst} LIMIT $5`,
  listSnapshotsOfType: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 AND type = $2 ${newestFirst} LIMIT $3 OFFSET $4`,
  countSnapshotsOfType: 'SELECT count(*)::int AS n FROM snapshots WHERE brain_id = $1 AND type = $2',
  updateSnapshot: `UPDATE snapshots SET ${snapshotUpdateColumns.map((c, i) => `${c} = $${i + 3}`).join(', ')}
    WHERE id = $1 AND account_id = $2`,
  deleteSnapshot: 'DELETE FROM snapshots WHERE id = $1 AND account_id = $2',

  insertEdge: `INSERT INTO edges (account_id, ${edgeColumns}) VALUES ($1, ${EDGE_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')})`,
  getEdge: `SELECT ${edgeColumns} FROM edges WHERE id = $1 AND account_id = $2`,
  getEdgeForUpdate: `SELECT ${edgeColumns} FROM edges WHERE id = $1 AND account_id = $2 FOR UPDATE`,
  updateEdge: `UPDATE edges SET edge_type = $3, strength = $4, label = $5, origin = $6, updated_at = $7
    WHERE id = $1 AND account_id = $2`,
  insertTombstone: `INSERT INTO edge_tombstones (source_id, target_id, edge_type, brain_id, created_at)
    VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
  deleteEdge: 'DELETE FROM edges WHERE id = $1 AND account_id = $2',
} as const;

// Edges of one snapshot: outgoing and incoming, each through its own index (a self-loop
// cannot exist, so the halves never overlap). $1 account, $2 scope, $3 type or null, $4 min.
const edgeFilters = 'AND ($3::text IS NULL OR edge_type = $3) AND strength >= $4';
const edgeHalves = (
  select: string,
  extra: string,
) => `SELECT ${select} FROM edges WHERE account_id = $1 AND source_id = $2 ${edgeFilters} ${extra}
  UNION ALL SELECT ${select} FROM edges WHERE account_id = $1 AND target_id = $2 ${edgeFilters} ${extra}`;
// $5 limit, then the cursor position: $6 created_at, $7 id.
const afterCursor = 'AND (created_at, id) < ($6, $7)';
const EDGE_SQL = {
  listEdgesOfSnapshotAfter: `${edgeHalves(edgeJsonRow, afterCursor)} ${newestFirst} LIMIT $5`,
  listEdgesOfBrainAfter: `SELECT ${edgeJsonRow} FROM edges WHERE account_id = $1 AND brain_id = $2 ${edgeFilters} ${afterCursor} ${newestFirst} LIMIT $5`,
  listEdgesOfSnapshot: `${edgeHalves(edgeJsonRow, '')} ${newestFirst} LIMIT $5 OFFSET $6`,
  countEdgesOfSnapshot: `SELECT count(*)::int AS n FROM (${edgeHalves('1', '')}) AS e`,
  listEdgesOfBrain: `SELECT ${edgeJsonRow} FROM edges WHERE account_id = $1 AND brain_id = $2 ${edgeFilters} ${newestFirst} LIMIT $5 OFFSET $6`,
  countEdgesOfBrain: `SELECT count(*)::int AS n FROM edges WHERE account_id = $1 AND brain_id = $2 ${edgeFilters}`,
} as const;

type Queryable = pg.Pool | pg.PoolClient;
type Name = keyof typeof SQL | keyof typeof EDGE_SQL;

function statement(name: Name, values: unknown[]): pg.QueryConfig {
  const text = (SQL as Record<string, string>)[name] ?? (EDGE_SQL as Record<string, string>)[name];
  return { name, text: text as string, values };
}

/** Scale-out storage: the same Store on PostgreSQL, through a pool of connections. */
export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
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
  private readonly keys: KeyCache;

  constructor(connectionString: string, options: PostgresOptions = {}) {
    this.keys = new KeyCache(connectionString, () => this.schemaVersion());
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
    this.search = new PostgresSearchStore(this.pool);
    this.links = this.work = new PostgresLinkStore(this.pool);
    this.vectors = new PostgresVectorStore(this.pool);
    this.knowledge = new PostgresKnowledgeStore(this.pool);
    this.jobs = new PostgresJobStore(this.pool);
    this.idempotency = new PostgresIdempotencyStore(this.pool);
    this.memories = new PostgresMemoryStore(this.pool);
    this.transfer = new PostgresTransferStore(this.pool);
  }

  private async rows<R extends pg.QueryResultRow>(name: Name, values: unknown[], db: Queryable = this.pool) {
    return (await db.query<R>(statement(name, values))).rows;
  }

  private async one<R extends pg.QueryResultRow>(name: Name, values: unknown[], db: Queryable = this.pool) {
    return (await this.rows<R>(name, values, db))[0];
  }

  private async count(name: Name, values: unknown[]): Promise<number> {
    return (await this.one<{ n: number }>(name, values))?.n ?? 0;
  }

  private async run(name: Name, values: unknown[], db: Queryable = this.pool): Promise<number> {
    try {
      return (await db.query(statement(name, values))).rowCount ?? 0;
    } catch (err) {
      // A write holding U+0000 (accepted by the API, stored by SQLite): a 400, not a 500.
      throw nulAsBadRequest(err);
    }
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async migrate(): Promise<number> {
    return runPostgresMigrations(this.pool, postgresMigrations);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.keys.close();
    await this.pool.end();
  }

  async provisionKey(p: KeyProvisioning): Promise<void> {
    await this.transaction(async (client) => {
      if (p.account) await this.run('insertAccount', [p.account.id, p.account.created_at], client);
      if (p.brain) {
        const b = p.brain;
        await this.run('insertBrain', [b.id, b.account_id, b.name, b.auto_link, b.created_at, b.updated_at], client);
      }
      const k = p.key;
      await this.run(
        'insertKey',
        [k.id, k.account_id, k.brain_id, k.key_hash, k.prefix, k.plan, k.rpm, k.burst, k.created_at, k.revoked_at],
        client,
      );
    });
  }

  /** From the key cache when it can answer (see KeyCache): then without a round trip. */
  findApiKeyByHash(keyHash: string): MaybePromise<ApiKeyRecord | undefined> {
    const cached = this.keys.get(keyHash);
    if (cached) return cached;
    const ticket = this.keys.ticket();
    return this.one<ApiKeyRecord>('keyByHash', [keyHash]).then((record) => {
      this.keys.remember(ticket, keyHash, record);
      return record;
    });
  }

  private async schemaVersion(): Promise<number> {
    const { rows } = await this.pool.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    return rows[0]?.version ?? 0;
  }

  getApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    return this.one<ApiKeyRecord>('keyById', [id]);
  }

  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    return accountId === undefined
      ? this.rows<ApiKeyRecord>('listKeys', [])
      : this.rows<ApiKeyRecord>('listKeysOfAccount', [accountId]);
  }

  updateApiKey(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined> {
    return this.transaction(async (client) => {
      const current = await this.one<ApiKeyRecord>('keyByIdForUpdate', [id], client);
      if (!current) return undefined;
      const next = change(current);
      await this.run('updateKey', [id, next.plan, next.rpm, next.burst, next.revoked_at], client);
      return next;
    }).finally(() => this.keys.invalidate()); // this instance at once; the others by NOTIFY
  }

  countActiveApiKeys(): Promise<number> {
    return this.count('countActiveKeys', []);
  }

  getAccount(id: string): Promise<Account | undefined> {
    return this.one<Account>('getAccount', [id]);
  }

  async insertBrain(brain: Brain, newAccount?: Account): Promise<void> {
    const row = [brain.id, brain.account_id, brain.name, brain.auto_link, brain.created_at, brain.updated_at];
    try {
      if (!newAccount) await this.run('insertBrain', row);
      else
        await this.transaction(async (client) => {
          await this.run('insertAccount', [newAccount.id, newAccount.created_at], client);
          await this.run('insertBrain', row, client);
        });
    } catch (err) {
      throw translatePostgresError(err, { conflict: 'brain already exists', missing: 'account' });
    }
  }

  async hasBrain(accountId: string, brainId: string): Promise<boolean> {
    return (await this.one('hasBrain', [brainId, accountId])) !== undefined;
  }

  async getBrain(accountId: string, brainId: string, db: Queryable = this.pool): Promise<BrainWithCounts | undefined> {
    const row = await this.one<BrainRow>('getBrain', [brainId, accountId], db);
    return row && brainFromRow(row);
  }

  updateBrain(accountId: string, id: string, change: (current: Brain) => Brain): Promise<BrainWithCounts | undefined> {
    return this.transaction(async (client) => {
      if (!(await this.one('getBrainForUpdate', [id, accountId], client))) return undefined;
      const current = (await this.getBrain(accountId, id, client)) as BrainWithCounts;
      const next = change(current);
      await this.run('updateBrain', [id, accountId, next.name, next.auto_link, next.updated_at], client);
      return this.getBrain(accountId, id, client);
    });
  }

  async getBrainUnscoped(brainId: string): Promise<BrainWithCounts | undefined> {
    const row = await this.one<BrainRow>('getBrainUnscoped', [brainId]);
    return row && brainFromRow(row);
  }

  async listBrains(accountId: string | undefined, page: Page): Promise<PageOf<BrainWithCounts>> {
    const [rows, total] = await Promise.all(
      accountId === undefined
        ? [this.rows<BrainRow>('listAllBrains', [page.limit, page.offset]), this.count('countAllBrains', [])]
        : [
            this.rows<BrainRow>('listBrains', [accountId, page.limit, page.offset]),
            this.count('countBrains', [accountId]),
          ],
    );
    return { rows: (rows as BrainRow[]).map(brainFromRow), total: total as number };
  }

  async insertSnapshot(accountId: string, snapshot: Snapshot): Promise<void> {
    try {
      await this.run('insertSnapshot', [accountId, ...snapshotValues(snapshot)]);
    } catch (err) {
      throw translatePostgresError(err, { conflict: 'snapshot already exists', missing: 'brain' });
    }
  }

  getSnapshot(accountId: string, id: string): Promise<Snapshot | undefined> {
    return this.one<Snapshot>('getSnapshot', [id, accountId]);
  }

  async getSnapshotJson(accountId: string, id: string): Promise<string | undefined> {
    return (await this.one<{ json: string }>('getSnapshotJson', [id, accountId]))?.json;
  }

  async listSnapshots(q: SnapshotQuery): Promise<PageOf<JsonRow>> {
    // One query for the page and one for the count, whatever the page size; run side by side.
    const after = q.after;
    const page =
      q.type === undefined
        ? after
          ? this.rows<JsonRow>('listSnapshotsAfter', [q.brainId, after.created_at, after.id, q.limit])
          : this.rows<JsonRow>('listSnapshots', [q.brainId, q.limit, q.offset])
        : after
          ? this.rows<JsonRow>('listSnapshotsOfTypeAfter', [q.brainId, q.type, after.created_at, after.id, q.limit])
          : this.rows<JsonRow>('listSnapshotsOfType', [q.brainId, q.type, q.limit, q.offset]);
    const count =
      q.type === undefined
        ? this.count('countSnapshots', [q.brainId])
        : this.count('countSnapshotsOfType', [q.brainId, q.type]);
    const [rows, total] = await Promise.all([page, count]);
    return { rows, total };
  }

  updateSnapshot(
    accountId: string,
    id: string,
    change: (current: Snapshot) => Snapshot,
  ): Promise<Snapshot | undefined> {
    return this.transaction(async (client) => {
      const current = await this.one<Snapshot>('getSnapshotForUpdate', [id, accountId], client);
      if (!current) return undefined;
      const next = change(current);
      await this.run('updateSnapshot', [id, accountId, ...snapshotValues(next).slice(1)], client);
      return next;
    });
  }

  async deleteSnapshot(accountId: string, id: string): Promise<boolean> {
    // Edges go with it through ON DELETE CASCADE, inside this statement's transaction.
    return (await this.run('deleteSnapshot', [id, accountId])) > 0;
  }

  async insertEdge(accountId: string, edge: Edge): Promise<void> {
    try {
      await this.run('insertEdge', [accountId, ...EDGE_COLUMNS.map((column) => edge[column])]);
    } catch (err) {
      throw translatePostgresError(err, { conflict: EDGE_CONFLICT, missing: 'snapshot' });
    }
  }

  getEdge(accountId: string, id: string): Promise<Edge | undefined> {
    return this.one<Edge>('getEdge', [id, accountId]);
  }

  /** The scope's check, the page and the count at once: one round trip's wait, not two. */
  async listEdges(q: EdgeQuery): Promise<PageOf<JsonRow> | undefined> {
    const bySnapshot = 'snapshotId' in q.scope;
    const scope = 'snapshotId' in q.scope ? q.scope.snapshotId : q.scope.brainId;
    const filters = [q.accountId, scope, q.edgeType ?? null, q.minStrength];
    const page = q.after
      ? this.rows<JsonRow>(bySnapshot ? 'listEdgesOfSnapshotAfter' : 'listEdgesOfBrainAfter', [
          ...filters,
          q.limit,
          q.after.created_at,
          q.after.id,
        ])
      : this.rows<JsonRow>(bySnapshot ? 'listEdgesOfSnapshot' : 'listEdgesOfBrain', [...filters, q.limit, q.offset]);
    const [exists, rows, total] = await Promise.all([
      this.one(bySnapshot ? 'hasSnapshot' : 'hasBrain', [scope, q.accountId]),
      page,
      this.count(bySnapshot ? 'countEdgesOfSnapshot' : 'countEdgesOfBrain', filters),
    ]);
    return exists === undefined ? undefined : { rows, total };
  }

  async updateEdge(accountId: string, id: string, change: (current: Edge) => Edge): Promise<Edge | undefined> {
    try {
      return await this.transaction(async (client) => {
        const current = await this.one<Edge>('getEdgeForUpdate', [id, accountId], client);
        if (!current) return undefined;
        const next = change(current);
        await this.run(
          'updateEdge',
          [id, accountId, next.edge_type, next.strength, next.label, next.origin, next.updated_at],
          client,
        );
        return next;
      });
    } catch (err) {
      throw translatePostgresError(err, { conflict: EDGE_CONFLICT, missing: 'edge' });
    }
  }

  /** Deletes the edge and leaves its tombstone, so the service never makes it again. */
  deleteEdge(accountId: string, id: string, at: string): Promise<boolean> {
    return this.transaction(async (client) => {
      const edge = await this.one<Edge>('getEdgeForUpdate', [id, accountId], client);
      if (!edge) return false;
      const [source, target] = canonicalPair(edge);
      await this.run('insertTombstone', [source, target, edge.edge_type, edge.brain_id, at], client);
      return (await this.run('deleteEdge', [id, accountId], client)) > 0;
    });
  }
}
