import type { PostgresOptions } from './postgres/postgres-store.js';
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
  // Only the store chosen is loaded, with its driver: a CLI command on SQLite never pays for
  // loading the PostgreSQL driver, nor the reverse (docs/performance.md, "CLI start").
  if (isPostgresUrl(databaseUrl)) {
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    return new PostgresStore(databaseUrl, postgres);
  }
  const { SqliteStore } = await import('./sqlite/sqlite-store.js');
  return new SqliteStore(databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, ''));
}
