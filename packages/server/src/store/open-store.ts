import type { PostgresOptions } from './postgres/postgres-store.js';
import type { Store } from './store.js';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * Why DATABASE_URL names no database this service opens, or undefined: a URL of another scheme
 * (`postgress://`, `mysql://`) would otherwise be taken for an SQLite file path, and each instance
 * would write a local file of that name.
 */
export function databaseUrlProblem(url: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1];
  if (scheme === undefined || /^(postgres|postgresql|sqlite|file)$/i.test(scheme)) return undefined;
  return `must be postgres://… (or postgresql://…) or the path of an SQLite file; the scheme "${scheme}" is neither`;
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
