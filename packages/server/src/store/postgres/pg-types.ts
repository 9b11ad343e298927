import pg from 'pg';

const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;

/**
 * PostgreSQL prints a timestamptz (in the UTC session time zone this store sets) as
 * `2026-11-21 02:34:48.2+00`, trimming trailing zeros of the fraction. The API's form is ISO
 * 8601 with exactly three fractional digits, as SQLite stores it.
 */
export function isoFromPostgres(text: string): string {
  const dot = text.indexOf('.', 19);
  const fraction =
    dot === -1
      ? '000'
      : text
          .slice(dot + 1, dot + 4)
          .replace(/\D.*$/, '')
          .padEnd(3, '0');
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

/** Per-pool type parsers: timestamps as ISO strings, counts (bigint) as numbers. */
export const snapgraphTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMPTZ_OID) return isoFromPostgres;
    if (oid === INT8_OID) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;
