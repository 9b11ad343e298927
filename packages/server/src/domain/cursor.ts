import { validationError } from '../errors.js';
import { isIdOf, type IdPrefix } from '../ids.js';
import type { Position } from '../model.js';

/**
 * Keyset pagination, an extension of the API: a request that carries `cursor` (empty for the
 * first page) gets `next_cursor` back; requests without it get exactly the specified body. A
 * cursor names the last item of a page by its sort key (created_at, id),
 * and the next page starts strictly after it — one index seek at any depth, where an offset
 * must count past every skipped row. Opaque to clients (base64url), validated on the way in.
 */
const POSITION = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\|([a-z]+_[0-9A-Za-z]{1,64})$/;

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.created_at}|${position.id}`).toString('base64url');
}

/** The position a cursor names; one from another list (another kind of id) is refused too. */
export function decodeCursor(cursor: string, of: IdPrefix): Position {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || !isRealInstant(match[1] as string) || !isIdOf(of, match[2] as string)) {
    throw validationError([{ field: 'cursor', reason: 'is not a cursor this list returned' }]);
  }
  return { created_at: match[1] as string, id: match[2] as string };
}

/**
 * A time of the cursor's shape that names a real instant, as PostgreSQL reads it: not February
 * 30th, month 99 or year 0 (which PostgreSQL refused with an error, a 500, where SQLite compared
 * the text and answered an empty page).
 */
function isRealInstant(time: string): boolean {
  // A leap second (23:59:60, which an import may have stored as text and PostgreSQL reads as the
  // next second) is checked as the second before it: JavaScript's Date has none.
  const checked = time.replace(/:60(\.\d{3}Z)$/, ':59$1');
  const at = new Date(checked);
  return !Number.isNaN(at.getTime()) && at.toISOString() === checked && !time.startsWith('0000');
}

export interface PageRequest {
  limit: number;
  offset: number;
  cursor?: string | undefined;
}

/**
 * The store query for a page of a list of `of` ids: one row more than asked, to learn whether
 * another page exists.
 */
export function pageQuery(
  request: PageRequest,
  of: IdPrefix,
): { limit: number; offset: number; after: Position | undefined } {
  if (request.cursor !== undefined && request.offset > 0) {
    throw validationError([{ field: 'offset', reason: 'cannot be combined with cursor' }]);
  }
  return {
    limit: request.limit + 1,
    offset: request.offset,
    // An empty cursor asks for the first page in cursor mode.
    after: request.cursor ? decodeCursor(request.cursor, of) : undefined,
  };
}

/** The page to return, and the cursor of the next one (null after the last page). */
export function pageResult<T extends Position>(rows: T[], limit: number): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeCursor(page[page.length - 1] as T) };
}
