import type Database from 'better-sqlite3';
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
import type { EdgeQuery, KeyProvisioning, SnapshotQuery, Store } from '../store.js';
import { sqliteMigrations } from './migrations.js';
import { openSqliteDatabase, type SqliteDatabase, type SqliteOptions } from './open-database.js';
import { EDGE_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import { snapshotFromRow, snapshotToRow, type SnapshotRow } from './rows.js';
import { GroupCommit } from './group-commit.js';
import { KEY_CACHE_SIZE, ReadCache } from '../read-cache.js';
import { runSqliteMigrations } from './run-migrations.js';
import { edgeJsonArguments } from '../json-columns.js';
import { translateSqliteError } from './sqlite-errors.js';
import { snapshotJson } from './snapshot-json.js';
import { SqliteSearchStore } from './search.js';
import { SqliteLinkStore } from './links.js';
import { SqliteVectorStore } from './vectors.js';
import { SqliteKnowledgeStore } from './knowledge.js';
import { SqliteJobStore } from './jobs.js';
import { SqliteIdempotencyStore } from './idempotency.js';
import { SqliteMemoryStore } from './memories.js';
import { SqliteTransferStore } from './transfer.js';
import { brainFromRow, canonicalPair, PENDING_WORK_COLUMNS, type BrainRow } from '../brain-rows.js';

const snapshotColumns = SNAPSHOT_COLUMNS.join(', ');
const edgeColumns = EDGE_COLUMNS.join(', ');
const newestFirst = 'ORDER BY created_at DESC, id DESC';
const snapshotJsonRow = `created_at, id, ${snapshotJson} AS json`;
const edgeJsonRow = `created_at, id, json_object(${edgeJsonArguments((c) => c)}) AS json`;
const counted = (kind: string) =>
  `coalesce((SELECT n FROM brain_counts c WHERE c.brain_id = b.id AND c.kind = '${kind}'), 0)`;
const brainColumns = `b.id, b.account_id, b.name, b.auto_link, b.created_at, b.updated_at,
  ${counted('snapshots')} AS snapshot_count, ${counted('edges')} AS edge_count, ${PENDING_WORK_COLUMNS}`;
/** A kept count (see migration 2): 'snapshots', 'snapshots:<type>', 'edges', 'edges:<type>'. */
const COUNT_OF_KIND = 'SELECT coalesce((SELECT n FROM brain_counts WHERE brain_id = ? AND kind = ?), 0) AS n';
/** Characters of JSON kept for edge pages (graph rendering reads the same pages over and over). */
const EDGE_PAGE_CACHE_CHARS = 16 * 1024 * 1024;
const EDGE_CONFLICT = 'an edge of this edge_type already exists between these snapshots';

type Statement<P extends unknown[] | object = unknown[], R = unknown> = Database.Statement<P, R>;

/**
 * The embedded default: one SQLite file, every statement prepared once, and every write
 * through group commit (see GroupCommit).
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
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
  private readonly stmt;
  private readonly writes: GroupCommit;
  private readonly keyCache = new ReadCache<ApiKeyRecord>(KEY_CACHE_SIZE);
  private readonly edgePages = new ReadCache<PageOf<JsonRow>>(EDGE_PAGE_CACHE_CHARS, weighPage);

  constructor(path: string, options: SqliteOptions = {}) {
    this.db = openSqliteDatabase(path, options);
    this.stmt = this.prepareAll();
    this.search = new SqliteSearchStore(this.db, path);
    this.writes = new GroupCommit(this.db);
    this.links = this.work = new SqliteLinkStore(this.db, this.writes);
    this.vectors = new SqliteVectorStore(this.db, this.writes);
    this.knowledge = new SqliteKnowledgeStore(this.db, this.writes);
    this.jobs = new SqliteJobStore(this.db, this.writes);
    this.idempotency = new SqliteIdempotencyStore(this.db, this.writes);
    this.memories = new SqliteMemoryStore(this.db, this.writes);
    this.transfer = new SqliteTransferStore(this.db, this.writes, path);
    this.readTogether = this.db.transaction((read: () => unknown) => read()).deferred as <T>(read: () => T) => T;
  }

  /**
   * Runs synchronous reads (this store's methods that answer without a promise) in one read
   * transaction: they see one state of the database, and the file locks that SQLite takes and
   * releases around every statement run outside a transaction — four fcntl calls, about 1.4 µs —
   * are taken once for all of them. Inside another transaction it runs in a savepoint.
   */
  readonly readTogether: <T>(read: () => T) => T;

  /** Statements are prepared lazily, on first use, because the schema may not exist yet. */
  private prepareAll() {
    const db = this.db;
    // Each statement is held by its own thunk: these run on every request, and a lookup by SQL
    // text would hash that text again whenever it is a fresh string.
    const prepare = <P extends unknown[] | object, R>(sql: string, pluck: boolean) => {
      let statement: Statement<P, R> | undefined;
      return (): Statement<P, R> => {
        if (statement === undefined) {
          statement = db.prepare<P, R>(sql);
          if (pluck) statement.pluck();
        }
        return statement;
      };
    };
    const prepared = <P extends unknown[] | object, R>(sql: string) => prepare<P, R>(sql, false);
    // One column, returned as the value itself: no row object to build (0.2 µs a call, and
    // these run on every GET of one snapshot).
    const preparedValue = <P extends unknown[] | object, R>(sql: string) => prepare<P, R>(sql, true);
    const snapshotInsertColumns = ['account_id', ...SNAPSHOT_COLUMNS];
    return {
      insertAccount: prepared<[string, string], never>('INSERT INTO accounts (id, created_at) VALUES (?, ?)'),
      getAccount: prepared<[string], Account>('SELECT id, created_at FROM accounts WHERE id = ?'),
      insertBrain: prepared<Record<string, unknown>, never>(
        'INSERT INTO brains (id, account_id, name, auto_link, created_at, updated_at) VALUES (@id, @account_id, @name, @auto_link, @created_at, @updated_at)',
      ),
      updateBrain: prepared<Record<string, unknown>, never>(
        'UPDATE brains SET name = @name, auto_link = @auto_link, updated_at = @updated_at WHERE id = @id AND account_id = @account_id',
      ),
      getBrain: prepared<[string, string], BrainRow>(
        `SELECT ${brainColumns} FROM brains b WHERE b.id = ? AND b.account_id = ?`,
      ),
      hasBrain: prepared<[string, string], { id: string }>('SELECT id FROM brains WHERE id = ? AND account_id = ?'),
      hasSnapshot: prepared<[string, string], { id: string }>(
        'SELECT id FROM snapshots WHERE id = ? AND account_id = ?',
      ),
      getBrainUnscoped: prepared<[string], BrainRow>(`SELECT ${brainColumns} FROM brains b WHERE b.id = ?`),
      listBrains: prepared<[string, number, number], BrainRow>(
        `SELECT ${brainColumns} FROM brains b WHERE b.account_id = ? ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?`,
      ),
      countBrains: prepared<[string], { n: number }>('SELECT count(*) AS n FROM brains WHERE account_id = ?'),
      listAllBrains: prepared<[number, number], BrainRow>(
        `SELECT ${brainColumns} FROM brains b ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?`,
      ),
      countAllBrains: prepared<[], { n: number }>('SELECT count(*) AS n FROM brains'),

      insertKey: prepared<ApiKeyRecord, never>(
        `INSERT INTO api_keys (id, account_id, brain_id, key_hash, prefix, plan, rpm, burst, created_at, revoked_at)
         VALUES (@id, @account_id, @brain_id, @key_hash, @prefix, @plan, @rpm, @burst, @created_at, @revoked_at)`,
      ),
      keyByHash: prepared<[string], ApiKeyRecord>('SELECT * FROM api_keys WHERE key_hash = ?'),
      keyById: prepared<[string], ApiKeyRecord>('SELECT * FROM api_keys WHERE id = ?'),
      listKeys: prepared<[], ApiKeyRecord>('SELECT * FROM api_keys ORDER BY created_at, id'),
      listKeysOfAccount: prepared<[string], ApiKeyRecord>(
        'SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id',
      ),
      updateKey: prepared<ApiKeyRecord, never>(
        'UPDATE api_keys SET plan = @plan, rpm = @rpm, burst = @burst, revoked_at = @revoked_at WHERE id = @id',
      ),
      countActiveKeys: prepared<[], { n: number }>('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL'),

      insertSnapshot: prepared<Record<string, unknown>, never>(
        `INSERT INTO snapshots (${snapshotInsertColumns.join(', ')})
         VALUES (${snapshotInsertColumns.map((c) => `@${c}`).join(', ')})`,
      ),
      dataVersion: preparedValue<[], number>('PRAGMA data_version'),
      getSnapshotJson: preparedValue<[string, string], string>(
        `SELECT ${snapshotJson} FROM snapshots WHERE id = ? AND account_id = ?`,
      ),
      getSnapshot: prepared<[string, string], SnapshotRow>(
        `SELECT ${snapshotColumns} FROM snapshots WHERE id = ? AND account_id = ?`,
      ),
      listSnapshots: prepared<[string, number, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? ${newestFirst} LIMIT ? OFFSET ?`,
      ),
      countOfKind: prepared<[string, string], { n: number }>(COUNT_OF_KIND),
      listSnapshotsAfter: prepared<[string, string, string, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? AND (created_at, id) < (?, ?) ${newestFirst} LIMIT ?`,
      ),
      listSnapshotsOfTypeAfter: prepared<[string, string, string, string, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? AND type = ? AND (created_at, id) < (?, ?) ${newestFirst} LIMIT ?`,
      ),
      listSnapshotsOfType: prepared<[string, string, number, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? AND type = ? ${newestFirst} LIMIT ? OFFSET ?`,
      ),

      updateSnapshot: prepared<Record<string, unknown>, never>(
        `UPDATE snapshots SET ${SNAPSHOT_COLUMNS.filter((c) => c !== 'id')
          .map((c) => `${c} = @${c}`)
          .join(', ')} WHERE id = @id AND account_id = @account_id`,
      ),
      deleteSnapshot: prepared<[string, string], never>('DELETE FROM snapshots WHERE id = ? AND account_id = ?'),

      insertEdge: prepared<Edge & { account_id: string }, never>(
        `INSERT INTO edges (account_id, ${edgeColumns})
         VALUES (@account_id, ${EDGE_COLUMNS.map((c) => `@${c}`).join(', ')})`,
      ),
      getEdge: prepared<[string, string], Edge>(`SELECT ${edgeColumns} FROM edges WHERE id = ? AND account_id = ?`),
      updateEdge: prepared<Edge & { account_id: string }, never>(
        `UPDATE edges SET edge_type = @edge_type, strength = @strength, label = @label, origin = @origin,
         updated_at = @updated_at WHERE id = @id AND account_id = @account_id`,
      ),
      insertTombstone: prepared<[string, string, string, string, string], never>(
        `INSERT INTO edge_tombstones (source_id, target_id, edge_type, brain_id, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      ),
      deleteEdge: prepared<[string, string], never>('DELETE FROM edges WHERE id = ? AND account_id = ?'),
      ...this.prepareEdgeLists(prepared),
    };
  }

  private prepareEdgeLists(prepared: <P extends unknown[] | object, R>(sql: string) => () => Statement<P, R>) {
    type Params = {
      account: string;
      scope: string;
      type: string | null;
      min: number;
      limit: number;
      offset: number;
      after_at: string | null;
      after_id: string | null;
    };
    const filters = 'AND (@type IS NULL OR edge_type = @type) AND strength >= @min';
    const afterCursor = 'AND (created_at, id) < (@after_at, @after_id)';
    // Edges of one snapshot: the outgoing and the incoming ones, each found through its own
    // index. A self-loop cannot exist, so the two halves never overlap.
    const halves = (select: string, extra: string) =>
      `SELECT ${select} FROM edges WHERE account_id = @account AND source_id = @scope ${filters} ${extra}
      UNION ALL SELECT ${select} FROM edges WHERE account_id = @account AND target_id = @scope ${filters} ${extra}`;
    const ofBrain = `SELECT ${edgeJsonRow} FROM edges WHERE account_id = @account AND brain_id = @scope ${filters}`;
    return {
      listEdgesOfSnapshot: prepared<Params, JsonRow>(
        `${halves(edgeJsonRow, '')} ${newestFirst} LIMIT @limit OFFSET @offset`,
      ),
      listEdgesOfSnapshotAfter: prepared<Params, JsonRow>(
        `${halves(edgeJsonRow, afterCursor)} ${newestFirst} LIMIT @limit`,
      ),
      listEdgesOfBrainAfter: prepared<Params, JsonRow>(`${ofBrain} ${afterCursor} ${newestFirst} LIMIT @limit`),
      countEdgesOfSnapshot: prepared<Params, { n: number }>(`SELECT count(*) AS n FROM (${halves('1', '')})`),
      listEdgesOfBrain: prepared<Params, JsonRow>(`${ofBrain} ${newestFirst} LIMIT @limit OFFSET @offset`),
      countEdgesOfBrain: prepared<Params, { n: number }>(
        `SELECT count(*) AS n FROM edges WHERE account_id = @account AND brain_id = @scope ${filters}`,
      ),
    };
  }

  async migrate(): Promise<number> {
    return runSqliteMigrations(this.db, sqliteMigrations);
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.writes.flush();
    this.search.close();
    if (this.db.open) this.db.close();
  }

  provisionKey(p: KeyProvisioning): Promise<void> {
    return this.writes.run(() => {
      if (p.account) this.stmt.insertAccount().run(p.account.id, p.account.created_at);
      if (p.brain) this.stmt.insertBrain().run(brainToRow(p.brain));
      this.stmt.insertKey().run(p.key);
    });
  }

  /**
   * Keys are looked up on every request, so they are cached until the database changes (see
   * ReadCache): a key revoked or changed by the CLI fails on its very next request. Only hits
   * are cached, so guessed keys cannot fill it.
   */
  findApiKeyByHash(keyHash: string): ApiKeyRecord | undefined {
    this.syncCache(this.keyCache);
    let record = this.keyCache.get(keyHash);
    if (record === undefined) {
      record = this.stmt.keyByHash().get(keyHash);
      if (record) this.keyCache.set(keyHash, record);
    }
    return record;
  }

  /** Drops the cache's entries if anything was committed since they were read. */
  private syncCache<V>(cache: ReadCache<V>): void {
    cache.sync(this.stmt.dataVersion().get() ?? -1, this.writes.commits);
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    return this.stmt.keyById().get(id);
  }

  async listApiKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    return accountId === undefined ? this.stmt.listKeys().all() : this.stmt.listKeysOfAccount().all(accountId);
  }

  updateApiKey(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined> {
    return this.writes.run(() => {
      const current = this.stmt.keyById().get(id);
      if (!current) return undefined;
      const next = change(current);
      this.stmt.updateKey().run(next);
      return next;
    });
  }

  async countActiveApiKeys(): Promise<number> {
    return this.stmt.countActiveKeys().get()?.n ?? 0;
  }

  async getAccount(id: string): Promise<Account | undefined> {
    return this.stmt.getAccount().get(id);
  }

  insertBrain(brain: Brain, newAccount?: Account): Promise<void> {
    return this.writes.run(() => {
      try {
        if (newAccount) this.stmt.insertAccount().run(newAccount.id, newAccount.created_at);
        this.stmt.insertBrain().run(brainToRow(brain));
      } catch (err) {
        throw translateSqliteError(err, { conflict: 'brain already exists', missing: 'account' });
      }
    });
  }

  async getBrain(accountId: string, brainId: string): Promise<BrainWithCounts | undefined> {
    const row = this.stmt.getBrain().get(brainId, accountId);
    return row && brainFromRow(row);
  }

  updateBrain(accountId: string, id: string, change: (current: Brain) => Brain): Promise<BrainWithCounts | undefined> {
    return this.writes.run(() => {
      const row = this.stmt.getBrain().get(id, accountId);
      if (!row) return undefined;
      const next = change(brainFromRow(row));
      this.stmt.updateBrain().run(brainToRow(next));
      const updated = this.stmt.getBrain().get(id, accountId);
      return updated && brainFromRow(updated);
    });
  }

  async hasBrain(accountId: string, brainId: string): Promise<boolean> {
    return this.stmt.hasBrain().get(brainId, accountId) !== undefined;
  }

  async getBrainUnscoped(brainId: string): Promise<BrainWithCounts | undefined> {
    const row = this.stmt.getBrainUnscoped().get(brainId);
    return row && brainFromRow(row);
  }

  async listBrains(accountId: string | undefined, page: Page): Promise<PageOf<BrainWithCounts>> {
    return this.db.transaction(() => {
      if (accountId === undefined) {
        return {
          rows: this.stmt.listAllBrains().all(page.limit, page.offset).map(brainFromRow),
          total: this.stmt.countAllBrains().get()?.n ?? 0,
        };
      }
      return {
        rows: this.stmt.listBrains().all(accountId, page.limit, page.offset).map(brainFromRow),
        total: this.stmt.countBrains().get(accountId)?.n ?? 0,
      };
    })();
  }

  insertSnapshot(accountId: string, snapshot: Snapshot): Promise<void> {
    const row = snapshotToRow(accountId, snapshot);
    return this.writes.run(() => {
      try {
        this.stmt.insertSnapshot().run(row);
      } catch (err) {
        throw translateSqliteError(err, { conflict: 'snapshot already exists', missing: 'brain' });
      }
    });
  }

  getSnapshotJson(accountId: string, id: string): string | undefined {
    return this.stmt.getSnapshotJson().get(id, accountId);
  }

  async getSnapshot(accountId: string, id: string): Promise<Snapshot | undefined> {
    const row = this.stmt.getSnapshot().get(id, accountId);
    return row && snapshotFromRow(row);
  }

  async listSnapshots(q: SnapshotQuery): Promise<PageOf<JsonRow>> {
    // Rows and count in one read transaction, so `count` describes the same state as the page.
    return this.db.transaction(() => {
      const after = q.after;
      const rows = after
        ? q.type === undefined
          ? this.stmt.listSnapshotsAfter().all(q.brainId, after.created_at, after.id, q.limit)
          : this.stmt.listSnapshotsOfTypeAfter().all(q.brainId, q.type, after.created_at, after.id, q.limit)
        : q.type === undefined
          ? this.stmt.listSnapshots().all(q.brainId, q.limit, q.offset)
          : this.stmt.listSnapshotsOfType().all(q.brainId, q.type, q.limit, q.offset);
      const total = this.stmt.countOfKind().get(q.brainId, q.type === undefined ? 'snapshots' : `snapshots:${q.type}`);
      return { rows, total: total?.n ?? 0 };
    })();
  }

  updateSnapshot(
    accountId: string,
    id: string,
    change: (current: Snapshot) => Snapshot,
  ): Promise<Snapshot | undefined> {
    return this.writes.run(() => {
      const row = this.stmt.getSnapshot().get(id, accountId);
      if (!row) return undefined;
      const next = change(snapshotFromRow(row));
      this.stmt.updateSnapshot().run(snapshotToRow(accountId, next));
      return next;
    });
  }

  deleteSnapshot(accountId: string, id: string): Promise<boolean> {
    // Edges go with it through ON DELETE CASCADE, inside this same statement's savepoint.
    return this.writes.run(() => this.stmt.deleteSnapshot().run(id, accountId).changes > 0);
  }

  insertEdge(accountId: string, edge: Edge): Promise<void> {
    const row = { ...edge, account_id: accountId };
    return this.writes.run(() => {
      try {
        this.stmt.insertEdge().run(row);
      } catch (err) {
        throw translateSqliteError(err, { conflict: EDGE_CONFLICT, missing: 'snapshot' });
      }
    });
  }

  async getEdge(accountId: string, id: string): Promise<Edge | undefined> {
    return this.stmt.getEdge().get(id, accountId);
  }

  /**
   * Edge pages are what a graph view asks for again and again while nothing changes, so they
   * are cached until the next write (see ReadCache).
   */
  async listEdges(q: EdgeQuery): Promise<PageOf<JsonRow> | undefined> {
    this.syncCache(this.edgePages);
    const key = edgePageKey(q);
    let page = this.edgePages.get(key);
    if (page === undefined) {
      page = this.readEdgePage(q);
      // Only pages are kept, as with keys: guessed scopes cannot fill the cache.
      if (page !== undefined) this.edgePages.set(key, page);
    }
    return page;
  }

  /** The scope's check and its page in one read transaction: a kept page vouches for both. */
  private readEdgePage(q: EdgeQuery): PageOf<JsonRow> | undefined {
    const bySnapshot = 'snapshotId' in q.scope;
    const params = {
      account: q.accountId,
      scope: 'snapshotId' in q.scope ? q.scope.snapshotId : q.scope.brainId,
      type: q.edgeType ?? null,
      min: q.minStrength,
      limit: q.limit,
      offset: q.offset,
      after_at: q.after?.created_at ?? null,
      after_id: q.after?.id ?? null,
    };
    const list = q.after
      ? bySnapshot
        ? this.stmt.listEdgesOfSnapshotAfter()
        : this.stmt.listEdgesOfBrainAfter()
      : bySnapshot
        ? this.stmt.listEdgesOfSnapshot()
        : this.stmt.listEdgesOfBrain();
    return this.db.transaction(() => {
      const scopeExists = bySnapshot ? this.stmt.hasSnapshot() : this.stmt.hasBrain();
      if (scopeExists.get(params.scope, q.accountId) === undefined) return undefined;
      const rows = list.all(params);
      // A brain's edges, all or of one type, have a kept count; a strength filter must count.
      const total =
        !bySnapshot && q.minStrength === 0
          ? this.stmt.countOfKind().get(params.scope, q.edgeType ? `edges:${q.edgeType}` : 'edges')
          : (bySnapshot ? this.stmt.countEdgesOfSnapshot() : this.stmt.countEdgesOfBrain()).get(params);
      return { rows, total: total?.n ?? 0 };
    })();
  }

  updateEdge(accountId: string, id: string, change: (current: Edge) => Edge): Promise<Edge | undefined> {
    return this.writes.run(() => {
      const current = this.stmt.getEdge().get(id, accountId);
      if (!current) return undefined;
      const next = change(current);
      try {
        this.stmt.updateEdge().run({ ...next, account_id: accountId });
      } catch (err) {
        throw translateSqliteError(err, { conflict: EDGE_CONFLICT, missing: 'edge' });
      }
      return next;
    });
  }

  /** Deletes the edge and leaves its tombstone, so the service never makes it again. */
  deleteEdge(accountId: string, id: string, at: string): Promise<boolean> {
    return this.writes.run(() => {
      const edge = this.stmt.getEdge().get(id, accountId);
      if (!edge) return false;
      const [source, target] = canonicalPair(edge);
      this.stmt.insertTombstone().run(source, target, edge.edge_type, edge.brain_id, at);
      return this.stmt.deleteEdge().run(id, accountId).changes > 0;
    });
  }
}

/** Everything that selects an edge page, the account included. */
function edgePageKey(q: EdgeQuery): string {
  const scope = 'snapshotId' in q.scope ? `s:${q.scope.snapshotId}` : `b:${q.scope.brainId}`;
  const after = q.after ? `${q.after.created_at}/${q.after.id}` : '';
  return `${q.accountId} ${scope} ${q.edgeType ?? ''} ${q.minStrength} ${q.limit} ${q.offset} ${after}`;
}

const weighPage = (page: PageOf<JsonRow>): number => page.rows.reduce((sum, row) => sum + row.json.length, 64);

/** better-sqlite3 binds no booleans: auto_link is stored as 0 or 1. */
const brainToRow = (brain: Brain & { account_id: string }) => ({ ...brain, auto_link: brain.auto_link ? 1 : 0 });
