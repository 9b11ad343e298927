import { resolve } from 'node:path';

/** DATABASE_URL when it is not set: the CLI's and the server's default (design §16). */
export const DEFAULT_DATABASE_URL = './data/snapgraph.db';

const isPostgres = (url: string) => /^postgres(ql)?:\/\//i.test(url);
const sqlitePath = (url: string) => url.replace(/^(sqlite|file):(\/\/)?/i, '');

/**
 * The database as a person should read it (design §16): an SQLite file's path as configured,
 * or PostgreSQL's host and database — never a password.
 */
export function databaseLabel(databaseUrl: string): string {
  if (!isPostgres(databaseUrl)) return sqlitePath(databaseUrl);
  try {
    const url = new URL(databaseUrl);
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default database)';
    return `PostgreSQL database ${database} on ${url.host || 'localhost'}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL is not a URL this label can read)';
  }
}

/** Whether a CLI started in `cwd` without DATABASE_URL opens this same database. */
export function isDefaultDatabase(databaseUrl: string, cwd = process.cwd()): boolean {
  if (isPostgres(databaseUrl)) return false;
  return resolve(cwd, sqlitePath(databaseUrl)) === resolve(cwd, DEFAULT_DATABASE_URL);
}

/**
 * The DATABASE_URL a command must carry to reach this database from any directory: an SQLite
 * path made absolute; a PostgreSQL URL as it is, but a password in it shown as `<password>`
 * (it is never printed).
 */
export function databaseUrlForCommand(databaseUrl: string, cwd = process.cwd()): string {
  if (!isPostgres(databaseUrl)) return resolve(cwd, sqlitePath(databaseUrl));
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') url.password = 'PASSWORD';
    return url.toString().replace(':PASSWORD@', ':<password>@');
  } catch {
    return '<your DATABASE_URL>';
  }
}

/** A value as one shell word: quoted when it holds anything a shell would read. */
export function shellWord(value: string): string {
  return /^[\w./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
