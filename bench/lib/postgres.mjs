// A throwaway PostgreSQL database for one benchmark run, dropped at the end whatever happens.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './cleanup.mjs';

export const postgresAdminUrl =
  process.env.SNAPGRAPH_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function admin(sql) {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function postgresAnswers() {
  try {
    await admin('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** "15.14", or undefined when PostgreSQL does not answer. */
export async function postgresVersion() {
  try {
    return (await admin('SHOW server_version')).rows[0].server_version.split(' ')[0];
  } catch {
    return undefined;
  }
}

export async function createBenchDatabase() {
  const name = `snapgraph_bench_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const drop = onCleanup(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop };
}

/** The URL of the database `name` on the bench's PostgreSQL. */
export function postgresUrlOf(name) {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
