import type pg from 'pg';
import type { IdempotencyReservation, IdempotencyStore, StoredResponse } from '../job-store.js';

const KEY = 'account_id = $1 AND key = $2';

const SQL = {
  // Takes the key if it is free, expired, or abandoned in flight; otherwise changes nothing.
  // Two racing requests: the unique key makes the second wait for the first and then see its row.
  idemReserve: `INSERT INTO idempotency_keys (account_id, key, fingerprint, token, created_at)
    VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, token = excluded.token,
      status = NULL, headers = NULL, body = NULL, created_at = excluded.created_at
    WHERE idempotency_keys.created_at < $6
       OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < $7)`,
  idemGet: `SELECT fingerprint, status, headers, body, created_at FROM idempotency_keys WHERE ${KEY}`,
  idemSave: `UPDATE idempotency_keys SET status = $4, headers = $5, body = $6 WHERE ${KEY} AND token = $3`,
  idemRelease: `DELETE FROM idempotency_keys WHERE ${KEY} AND token = $3 AND status IS NULL`,
  idemPurge: `DELETE FROM idempotency_keys WHERE created_at < $1`,
} as const;

/** Responses kept for `Idempotency-Key` on PostgreSQL. */
export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly pool: pg.Pool) {}

  private query<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[]) {
    return this.pool.query<R>({ name, text: SQL[name], values });
  }

  async reserve(r: IdempotencyReservation): Promise<StoredResponse | undefined> {
    // The row seen may vanish before it is read (its request failed and let the key go): try again.
    for (;;) {
      const values = [r.accountId, r.key, r.fingerprint, r.token, r.now, r.expiredBefore, r.abandonedBefore];
      if (((await this.query('idemReserve', values)).rowCount ?? 0) > 0) return undefined;
      const stored = (await this.query<StoredResponse>('idemGet', [r.accountId, r.key])).rows[0];
      if (stored) return stored;
    }
  }

  async save(accountId: string, key: string, token: string, status: number, headers: string, body: string) {
    await this.query('idemSave', [accountId, key, token, status, headers, body]);
  }

  async release(accountId: string, key: string, token: string): Promise<void> {
    await this.query('idemRelease', [accountId, key, token]);
  }

  async purge(before: string): Promise<number> {
    return (await this.query('idemPurge', [before])).rowCount ?? 0;
  }
}
