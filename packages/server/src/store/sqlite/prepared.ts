import type Database from 'better-sqlite3';
import type { SqliteDatabase } from './open-database.js';
import type { GroupCommit } from './group-commit.js';
import type { ReadCache } from '../read-cache.js';

export type Statement<P extends unknown[] | object = unknown[], R = unknown> = Database.Statement<P, R>;
export type Prepare = <P extends unknown[] | object, R>(sql: string) => () => Statement<P, R>;

/**
 * Statements prepared lazily, on first use, because the schema may not exist yet when a store
 * is made. Each statement is held by its own thunk: these run on every request, and a lookup by
 * SQL text would hash that text again whenever it is a fresh string.
 */
export function preparers(db: SqliteDatabase): { prepared: Prepare; preparedValue: Prepare } {
  const prepare =
    (pluck: boolean): Prepare =>
    <P extends unknown[] | object, R>(sql: string) => {
      let statement: Statement<P, R> | undefined;
      return (): Statement<P, R> => {
        if (statement === undefined) {
          statement = db.prepare<P, R>(sql);
          if (pluck) statement.pluck();
        }
        return statement;
      };
    };
  // preparedValue: one column, returned as the value itself: no row object to build (0.2 µs a
  // call, and these run on every GET of one snapshot).
  return { prepared: prepare(false), preparedValue: prepare(true) };
}

/**
 * A function that drops a ReadCache's entries if anything was committed since they were read:
 * by this store (GroupCommit counts its commits) or by another connection (`PRAGMA
 * data_version`).
 */
export function cacheSync(db: SqliteDatabase, writes: GroupCommit): <V>(cache: ReadCache<V>) => void {
  const dataVersion = preparers(db).preparedValue<[], number>('PRAGMA data_version');
  return (cache) => cache.sync(dataVersion().get() ?? -1, writes.commits);
}

/** A kept count (see migration 2): 'snapshots', 'snapshots:<type>', 'edges', 'edges:<type>'. */
export const COUNT_OF_KIND = 'SELECT coalesce((SELECT n FROM brain_counts WHERE brain_id = ? AND kind = ?), 0) AS n';
export const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';
