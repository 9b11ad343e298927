import type { IdempotencyReservation, IdempotencyStore, StoredResponse } from '../job-store.js';
import type { GroupCommit } from './group-commit.js';
import { lazyStatements } from './lazy-statement.js';
import type { SqliteDatabase } from './open-database.js';

const KEY = 'account_id = @accountId AND key = @key';

/** Responses kept for `Idempotency-Key` on SQLite; the reservation is one statement. */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    const prepared = lazyStatements(db);
    this.stmt = {
      // Takes the key if it is free, expired, or abandoned in flight; otherwise changes nothing.
      reserve: prepared<never>(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, token, created_at)
         VALUES (@accountId, @key, @fingerprint, @token, @now)
         ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, token = excluded.token,
           status = NULL, headers = NULL, body = NULL, created_at = excluded.created_at
         WHERE idempotency_keys.created_at < @expiredBefore
            OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < @abandonedBefore)`,
      ),
      get: prepared<StoredResponse>(
        `SELECT fingerprint, status, headers, body, created_at FROM idempotency_keys WHERE ${KEY}`,
      ),
      save: prepared<never>(
        `UPDATE idempotency_keys SET status = @status, headers = @headers, body = @body WHERE ${KEY} AND token = @token`,
      ),
      release: prepared<never>(`DELETE FROM idempotency_keys WHERE ${KEY} AND token = @token AND status IS NULL`),
      purge: prepared<never>(`DELETE FROM idempotency_keys WHERE created_at < @before`),
    };
  }

  reserve(r: IdempotencyReservation): Promise<StoredResponse | undefined> {
    const params = { ...r };
    return this.writes.run(() => {
      if (this.stmt.reserve().run(params).changes > 0) return undefined;
      return this.stmt.get().get(params) as StoredResponse;
    });
  }

  save(accountId: string, key: string, token: string, status: number, headers: string, body: string): Promise<void> {
    return this.writes.run(() => void this.stmt.save().run({ accountId, key, token, status, headers, body }));
  }

  release(accountId: string, key: string, token: string): Promise<void> {
    return this.writes.run(() => void this.stmt.release().run({ accountId, key, token }));
  }

  purge(before: string): Promise<number> {
    return this.writes.run(() => this.stmt.purge().run({ before }).changes);
  }
}
