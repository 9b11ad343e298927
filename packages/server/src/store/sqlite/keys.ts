import type { Account, ApiKeyRecord } from '../../model.js';
import type { KeyProvisioning, KeyStore } from '../key-store.js';
import { KEY_CACHE_SIZE, ReadCache } from '../read-cache.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { cacheSync, preparers } from './prepared.js';
import { brainToRow, INSERT_ACCOUNT, INSERT_BRAIN } from './brain-sql.js';

/** API keys and accounts on SQLite. */
export class SqliteKeyStore implements KeyStore {
  private readonly stmt;
  private readonly cache = new ReadCache<ApiKeyRecord>(KEY_CACHE_SIZE);
  private readonly syncCache: <V>(cache: ReadCache<V>) => void;

  constructor(
    db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    this.syncCache = cacheSync(db, writes);
    const { prepared } = preparers(db);
    this.stmt = {
      insertAccount: prepared<[string, string], never>(INSERT_ACCOUNT),
      getAccount: prepared<[string], Account>('SELECT id, created_at FROM accounts WHERE id = ?'),
      insertBrain: prepared<Record<string, unknown>, never>(INSERT_BRAIN),
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
    };
  }

  provision(p: KeyProvisioning): Promise<void> {
    return this.writes.run(() => {
      if (p.account) this.stmt.insertAccount().run(p.account.id, p.account.created_at);
      if (p.brain) this.stmt.insertBrain().run(brainToRow(p.brain));
      this.stmt.insertKey().run(p.key);
    });
  }

  /**
   * Keys are looked up on every request, so they are cached until the database changes (see
   * ReadCache): a key revoked or changed by the CLI fails on its very next request. Only hits
   * are cached, so guessed keys cannot fill it. Synchronous: a hit or a definite miss.
   */
  findByHashNow(keyHash: string): ApiKeyRecord | undefined {
    this.syncCache(this.cache);
    let record = this.cache.get(keyHash);
    if (record === undefined) {
      record = this.stmt.keyByHash().get(keyHash);
      if (record) this.cache.set(keyHash, record);
    }
    return record;
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.findByHashNow(keyHash);
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    return this.stmt.keyById().get(id);
  }

  async list(accountId?: string): Promise<ApiKeyRecord[]> {
    return accountId === undefined ? this.stmt.listKeys().all() : this.stmt.listKeysOfAccount().all(accountId);
  }

  update(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined> {
    return this.writes.run(() => {
      const current = this.stmt.keyById().get(id);
      if (!current) return undefined;
      const next = change(current);
      this.stmt.updateKey().run(next);
      return next;
    });
  }

  async countActive(): Promise<number> {
    return this.stmt.countActiveKeys().get()?.n ?? 0;
  }

  async getAccount(id: string): Promise<Account | undefined> {
    return this.stmt.getAccount().get(id);
  }
}
