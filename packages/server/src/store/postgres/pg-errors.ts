import { AppError, conflict, notFound } from '../../errors.js';

/**
 * unique_violation and foreign_key_violation, as the errors the rest of Snapgraph knows; and
 * text holding U+0000, which PostgreSQL cannot store (22021 in text, 22P05 in jsonb), as a 400
 * rather than a 500: the one character the API accepts on SQLite that this store must refuse.
 */
export function translatePostgresError(err: unknown, what: { conflict: string; missing: string }): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '23505') return conflict(what.conflict);
  if (code === '23503') return notFound(what.missing);
  return nulAsBadRequest(err);
}

/** Only the U+0000 translation, for statements whose other errors their callers handle. */
export function nulAsBadRequest(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '22021' || code === '22P05' ? nulRefused() : err;
}

export const nulRefused = (): AppError =>
  new AppError('BAD_REQUEST', 'text must not contain the NUL character (U+0000): PostgreSQL cannot store it', {
    field: 'text',
    reason: 'must not contain the NUL character (U+0000)',
    errors: [{ field: 'text', reason: 'must not contain the NUL character (U+0000)' }],
  });
