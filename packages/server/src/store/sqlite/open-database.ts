import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

export interface SqliteOptions {
  /** `FULL` (default) makes an acknowledged write survive power loss, not only a crash. */
  synchronous?: 'FULL' | 'NORMAL';
  busyTimeoutMs?: number;
}

/** Opens (creating if needed) a SQLite file with the settings every Snapgraph connection uses. */
export function openSqliteDatabase(path: string, options: SqliteOptions = {}): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  // The CLI may write (keys, brains) while the server runs: wait for the lock instead of failing.
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  db.pragma('temp_store = MEMORY');
  return db;
}
