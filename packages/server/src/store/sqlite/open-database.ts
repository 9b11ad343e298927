import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

export interface SqliteOptions {
  /** `FULL` (default) makes an acknowledged write survive power loss, not only a crash. */
  synchronous?: 'FULL' | 'NORMAL';
  busyTimeoutMs?: number;
}

/** Opens (creating if needed) a SQLite file with the settings every Snapgraph connection uses. */
export function openSqliteDatabase(path: string, options: SqliteOptions = {}): SqliteDatabase {
  if (path !== ':memory:') makeDirectories(dirname(path));
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  // The CLI may write (keys, brains) while the server runs: wait for the lock instead of failing.
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  db.pragma('temp_store = MEMORY');
  return db;
}

/**
 * Creates `dir` and its missing parents, top down, one `mkdir` each. Not `mkdirSync(dir,
 * { recursive: true })`: Node 20's loops forever, spinning a core, where `mkdir` answers ENOENT
 * under a directory that exists (`/proc/nope/x.db`); one call per level fails with that error.
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let current = resolve(dir); !isDirectory(current); current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  for (const directory of missing.reverse()) {
    try {
      mkdirSync(directory);
    } catch (error) {
      // Made by another process in the meantime is fine; a file in the way is not.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isDirectory(directory)) throw error;
    }
  }
}

const isDirectory = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
