import type Database from 'better-sqlite3';
import type { SqliteDatabase } from './open-database.js';

export type Params = Record<string, unknown>;

/**
 * A statement prepared on first use, then kept: the schema may not exist when a store is made
 * (migrations run after), and a statement held by its own thunk is not looked up by its SQL
 * text on every call.
 */
export function lazyStatements(db: SqliteDatabase): <R>(sql: string) => () => Database.Statement<Params, R> {
  return <R>(sql: string) => {
    let statement: Database.Statement<Params, R> | undefined;
    return () => (statement ??= db.prepare<Params, R>(sql));
  };
}
