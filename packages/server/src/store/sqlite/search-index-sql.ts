import { NARRATIVE_COLUMNS, SEARCHED_COLUMNS } from '../searched-columns.js';

/**
 * The full-text index of snapshots (SQLite FTS5), kept by triggers in the writing transaction,
 * so a snapshot is searchable as soon as its write is acknowledged and gone as soon as it is
 * deleted, whatever writes it (the API, a bulk load, a cascade).
 *
 * The index is contentless (the text stays in `snapshots` only) and keyed by the integer
 * primary key of `snapshot_search_rows`, not by the snapshots table's implicit rowid, which a
 * VACUUM may renumber. That table also holds each row's brain and type: a query is confined to
 * a brain by a look-up per match there. (A brain token inside the index made bm25 walk the
 * whole brain's doclist for its IDF on every query: 4.5× the cost at 100,000 snapshots.)
 * Columns, in the order `bm25()` takes their weights: `name`, `tags`, `core` (core and
 * one_liner), `body` (every narrative field). The porter stemmer folds "running" and "runs"
 * into "run"; unicode61 folds case and accents.
 */
export const indexedValues = (row: string) => `${row}.name,
  (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(${row}.tags)),
  ${row}.core || ' ' || coalesce(${row}.one_liner, ''),
  concat_ws(' ', ${NARRATIVE_COLUMNS.map((c) => `${row}.${c}`).join(', ')})`;

const changed = SEARCHED_COLUMNS.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');

export const SEARCH_INDEX_SQL = `
  CREATE TABLE snapshot_search_rows (
    rowid       INTEGER PRIMARY KEY,
    snapshot_id TEXT NOT NULL UNIQUE,
    brain_id    TEXT NOT NULL,
    type        TEXT NOT NULL
  ) STRICT;
  CREATE VIRTUAL TABLE snapshot_search USING fts5(
    name, tags, core, body,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );

  INSERT INTO snapshot_search_rows (snapshot_id, brain_id, type)
    SELECT id, brain_id, type FROM snapshots ORDER BY created_at, id;
  INSERT INTO snapshot_search (rowid, name, tags, core, body)
    SELECT r.rowid, ${indexedValues('s')}
    FROM snapshots s JOIN snapshot_search_rows r ON r.snapshot_id = s.id;

  CREATE TRIGGER snapshots_indexed AFTER INSERT ON snapshots BEGIN
    INSERT INTO snapshot_search_rows (snapshot_id, brain_id, type) VALUES (NEW.id, NEW.brain_id, NEW.type);
    INSERT INTO snapshot_search (rowid, name, tags, core, body) VALUES (last_insert_rowid(), ${indexedValues('NEW')});
  END;
  CREATE TRIGGER snapshots_reindexed AFTER UPDATE ON snapshots WHEN ${changed} BEGIN
    UPDATE snapshot_search_rows SET brain_id = NEW.brain_id, type = NEW.type WHERE snapshot_id = OLD.id;
    DELETE FROM snapshot_search WHERE rowid = (SELECT rowid FROM snapshot_search_rows WHERE snapshot_id = OLD.id);
    INSERT INTO snapshot_search (rowid, name, tags, core, body)
      VALUES ((SELECT rowid FROM snapshot_search_rows WHERE snapshot_id = NEW.id), ${indexedValues('NEW')});
  END;
  CREATE TRIGGER snapshots_unindexed AFTER DELETE ON snapshots BEGIN
    DELETE FROM snapshot_search WHERE rowid = (SELECT rowid FROM snapshot_search_rows WHERE snapshot_id = OLD.id);
    DELETE FROM snapshot_search_rows WHERE snapshot_id = OLD.id;
  END;
`;
