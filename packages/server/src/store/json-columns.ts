import { EDGE_COLUMNS, SNAPSHOT_COLUMNS } from './columns.js';

/**
 * The arguments of a JSON-object constructor (SQLite's json_object, PostgreSQL's
 * json_build_object) that builds a snapshot exactly as the API returns it, so the hot GET can
 * send the database's text without building and serializing an object in between.
 * `column` renders one column: JSON columns embed as JSON, timestamps as ISO text.
 */
export function snapshotJsonArguments(column: (name: (typeof SNAPSHOT_COLUMNS)[number]) => string): string {
  return SNAPSHOT_COLUMNS.map((name) => `'${name}', ${column(name)}`).join(', ');
}

/** The same for an edge. */
export function edgeJsonArguments(column: (name: (typeof EDGE_COLUMNS)[number]) => string): string {
  return EDGE_COLUMNS.map((name) => `'${name}', ${column(name)}`).join(', ');
}
