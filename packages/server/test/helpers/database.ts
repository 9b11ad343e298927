import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Which backend the suite runs on: SNAPGRAPH_TEST_BACKEND=postgres runs every suite against
 * PostgreSQL, each test database made fresh and dropped afterwards; the default is SQLite.
 */
export type Backend = 'sqlite' | 'postgres';

export const testBackend: Backend = process.env.SNAPGRAPH_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** A server where the test role may create databases (trust auth on this machine). */
export const postgresAdminUrl =
  process.env.SNAPGRAPH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database for one test: a file in `dir`, or a new PostgreSQL database. */
export async function createTestDatabase(dir: string): Promise<TestDatabase> {
  if (testBackend === 'sqlite') return { url: join(dir, 'snapgraph.db'), drop: async () => undefined };
  const name = `snapgraph_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/** Whether PostgreSQL answers at the admin URL. */
export async function postgresReachable(): Promise<boolean> {
  try {
    await withAdmin((client) => client.query('SELECT 1'));
    return true;
  } catch {
    return false;
  }
}
