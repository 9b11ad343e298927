import type pg from 'pg';
import type { Account, ApiKeyRecord } from '../../model.js';
import type { KeyProvisioning, KeyStore } from '../key-store.js';
import type { KeyCache } from './key-cache.js';
import { NamedQueries } from './queries.js';
import { BRAIN_SQL } from './brain-sql.js';

const SQL = {
  insertAccount: BRAIN_SQL.insertAccount,
  insertBrain: BRAIN_SQL.insertBrain,
  getAccount: 'SELECT id, created_at FROM accounts WHERE id = $1',
  insertKey: `INSERT INTO api_keys (id, account_id, brain_id, key_hash, prefix, plan, rpm, burst, created_at, revoked_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  keyByHash: 'SELECT * FROM api_keys WHERE key_hash = $1',
  keyById: 'SELECT * FROM api_keys WHERE id = $1',
  keyByIdForUpdate: 'SELECT * FROM api_keys WHERE id = $1 FOR UPDATE',
  listKeys: 'SELECT * FROM api_keys ORDER BY created_at, id',
  listKeysOfAccount: 'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id',
  updateKey: 'UPDATE api_keys SET plan = $2, rpm = $3, burst = $4, revoked_at = $5 WHERE id = $1',
  countActiveKeys: 'SELECT count(*)::int AS n FROM api_keys WHERE revoked_at IS NULL',
} as const;

/** API keys and accounts on PostgreSQL, keys found through the KeyCache when it can answer. */
export class PostgresKeyStore extends NamedQueries<keyof typeof SQL> implements KeyStore {
  constructor(
    pool: pg.Pool,
    private readonly cache: KeyCache,
  ) {
    super(pool, SQL);
  }

  async provision(p: KeyProvisioning): Promise<void> {
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

  /** From the key cache when it can answer (see KeyCache), without a round trip. */
  findByHashNow(keyHash: string): ApiKeyRecord | undefined {
    return this.cache.get(keyHash);
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const cached = this.cache.get(keyHash);
    if (cached) return cached;
    const ticket = this.cache.ticket();
    return this.one<ApiKeyRecord>('keyByHash', [keyHash]).then((record) => {
      this.cache.remember(ticket, keyHash, record);
      return record;
    });
  }

  get(id: string): Promise<ApiKeyRecord | undefined> {
    return this.one<ApiKeyRecord>('keyById', [id]);
  }

  list(accountId?: string): Promise<ApiKeyRecord[]> {
    return accountId === undefined
      ? this.rows<ApiKeyRecord>('listKeys', [])
      : this.rows<ApiKeyRecord>('listKeysOfAccount', [accountId]);
  }

  update(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined> {
    return this.transaction(async (client) => {
      const current = await this.one<ApiKeyRecord>('keyByIdForUpdate', [id], client);
      if (!current) return undefined;
      const next = change(current);
      await this.run('updateKey', [id, next.plan, next.rpm, next.burst, next.revoked_at], client);
      return next;
    }).finally(() => this.cache.invalidate()); // this instance at once; the others by NOTIFY
  }

  countActive(): Promise<number> {
    return this.count('countActiveKeys', []);
  }

  getAccount(id: string): Promise<Account | undefined> {
    return this.one<Account>('getAccount', [id]);
  }
}
