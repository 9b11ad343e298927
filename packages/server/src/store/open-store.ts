import { PostgresStore, type PostgresOptions } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Chooses the Store implementation from DATABASE_URL: a `postgres://` URL is PostgreSQL,
 * anything else is the path of an SQLite file (an optional `sqlite:` or `file:` prefix is
 * stripped).
 */
export async function openStore(databaseUrl: string, postgres: PostgresOptions = {}): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) return new PostgresStore(databaseUrl, postgres);
  return new SqliteStore(databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, ''));
}
