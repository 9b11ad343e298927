import { nulAsBadRequest } from './pg-errors.js';
import type pg from 'pg';

export type Queryable = pg.Pool | pg.PoolClient;

/**
 * Runs `work` on one pooled connection inside BEGIN … COMMIT, and rolls back if it throws: every
 * write of more than one statement goes through here. A `work` that finds nothing to change
 * simply returns; committing a transaction that wrote nothing is the same as rolling it back.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
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

/**
 * Named statements from one table of SQL: each pooled connection prepares a statement once, on
 * its first use, and reuses the plan. `db` is the pool, or a transaction's client.
 */
export class NamedQueries<Name extends string> {
  constructor(
    protected readonly pool: pg.Pool,
    private readonly sql: Readonly<Record<Name, string>>,
  ) {}

  protected async rows<R extends pg.QueryResultRow>(name: Name, values: unknown[], db: Queryable = this.pool) {
    return (await db.query<R>({ name, text: this.sql[name], values })).rows;
  }

  protected async one<R extends pg.QueryResultRow>(name: Name, values: unknown[], db: Queryable = this.pool) {
    return (await this.rows<R>(name, values, db))[0];
  }

  protected async count(name: Name, values: unknown[]): Promise<number> {
    return (await this.one<{ n: number }>(name, values))?.n ?? 0;
  }

  protected async run(name: Name, values: unknown[], db: Queryable = this.pool): Promise<number> {
    try {
      return (await db.query({ name, text: this.sql[name], values })).rowCount ?? 0;
    } catch (err) {
      // A write holding U+0000 (accepted by the API, stored by SQLite): a 400, not a 500.
      throw nulAsBadRequest(err);
    }
  }

  protected transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }
}
