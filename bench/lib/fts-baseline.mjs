// The text-search baseline's index: a plain FTS5 table over the name and core of every snapshot
// of a Snapgraph database, in a file of its own (the Snapgraph file is only read), with the
// snapshots' rowids, so that the baseline joins its top 10 back to the rows.
import Database from 'better-sqlite3';

/** FTS5 query text for `q`: its words quoted (no operator syntax), all required or any. */
export function ftsQuery(q, mode = 'and') {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w) => `"${w}"`).join(mode === 'or' ? ' OR ' : ' ');
}

/** Builds `ftsPath` from the snapshots in `databasePath`. Returns the number of rows indexed. */
export function buildFtsIndex(databasePath, ftsPath, { tokenize = 'porter unicode61 remove_diacritics 2' } = {}) {
  const db = new Database(ftsPath);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.prepare('ATTACH DATABASE ? AS src').run(databasePath);
    db.exec(`CREATE VIRTUAL TABLE search USING fts5(name, core, tokenize = '${tokenize}')`);
    db.exec('INSERT INTO search (rowid, name, core) SELECT rowid, name, core FROM src.snapshots');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return db.prepare('SELECT count(*) FROM search').pluck().get();
  } finally {
    db.close();
  }
}

/** A counter of matching rows, for choosing queries that match neither all rows nor none. */
export function ftsCounter(ftsPath, mode = 'and') {
  const db = new Database(ftsPath, { readonly: true });
  const count = db.prepare('SELECT count(*) FROM search WHERE search MATCH ?').pluck();
  return { count: (q) => count.get(ftsQuery(q, mode)), close: () => db.close() };
}
