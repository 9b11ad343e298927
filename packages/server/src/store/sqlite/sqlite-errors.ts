import { conflict, notFound } from '../../errors.js';

/** Turns SQLite constraint failures into the errors the rest of Snapgraph understands. */
export function translateSqliteError(err: unknown, what: { conflict: string; missing: string }): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return conflict(what.conflict);
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return notFound(what.missing);
  return err;
}
