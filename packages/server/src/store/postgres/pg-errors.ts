import { conflict, notFound } from '../../errors.js';

/** unique_violation and foreign_key_violation, as the errors the rest of Snapgraph knows. */
export function translatePostgresError(err: unknown, what: { conflict: string; missing: string }): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '23505') return conflict(what.conflict);
  if (code === '23503') return notFound(what.missing);
  return err;
}
