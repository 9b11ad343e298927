import { BRAIN_SPAN } from './memories-sql.js';

/**
 * Migration 12 on SQLite (design §12): when a memory happened and which conversation it belongs
 * to, and the speaker in the full-text index.
 *
 * `occurred_at` is nullable only because SQLite adds a NOT NULL column with a constant default
 * alone; every write sets it, and existing memories take their created_at here. Sessions are
 * read in order of occurred_at (the `context` of a search hit), and lists filter on it.
 *
 * The index gains a speaker column between content and tags (questions name people): FTS5 has
 * no ALTER, so it is made again from the rows, under the same rowids, with its triggers.
 */
const indexed = (row: 'NEW' | 'OLD') =>
  `${row}.content, coalesce(${row}.speaker, ''), (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(${row}.tags))`;
const rowOf = (id: string) => `(SELECT rowid FROM memory_search_rows WHERE memory_id = ${id})`;

export const MEMORIES_WHEN_SQL = `
  ALTER TABLE memories ADD COLUMN occurred_at TEXT;
  ALTER TABLE memories ADD COLUMN session_id TEXT;
  UPDATE memories SET occurred_at = created_at;
  CREATE INDEX memories_by_session ON memories (brain_id, session_id, occurred_at, id) WHERE session_id IS NOT NULL;
  CREATE INDEX memories_by_occurrence ON memories (brain_id, occurred_at);

  DROP TRIGGER memories_indexed;
  DROP TRIGGER memories_reindexed;
  DROP TRIGGER memories_unindexed;
  DROP TABLE memory_search;
  CREATE VIRTUAL TABLE memory_search USING fts5(
    content, speaker, tags, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO memory_search (rowid, content, speaker, tags)
    SELECT r.rowid, m.content, coalesce(m.speaker, ''),
           (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(m.tags))
    FROM memory_search_rows r JOIN memories m ON m.id = r.memory_id;
  CREATE TRIGGER memories_indexed AFTER INSERT ON memories BEGIN
    INSERT INTO memory_brains (brain_id) VALUES (NEW.brain_id) ON CONFLICT DO NOTHING;
    INSERT INTO memory_search_rows (rowid, memory_id, memory_type)
      SELECT coalesce(
               (SELECT max(r.rowid) FROM memory_search_rows r
                WHERE r.rowid BETWEEN b.n * ${BRAIN_SPAN} AND b.n * ${BRAIN_SPAN} + ${BRAIN_SPAN - 1}),
               b.n * ${BRAIN_SPAN}) + 1,
             NEW.id, NEW.memory_type
      FROM memory_brains b WHERE b.brain_id = NEW.brain_id;
    INSERT INTO memory_search (rowid, content, speaker, tags) VALUES (${rowOf('NEW.id')}, ${indexed('NEW')});
  END;
  CREATE TRIGGER memories_reindexed AFTER UPDATE OF content, speaker, tags, memory_type ON memories BEGIN
    UPDATE memory_search_rows SET memory_type = NEW.memory_type WHERE memory_id = OLD.id;
    DELETE FROM memory_search WHERE rowid = ${rowOf('OLD.id')};
    INSERT INTO memory_search (rowid, content, speaker, tags) VALUES (${rowOf('NEW.id')}, ${indexed('NEW')});
  END;
  CREATE TRIGGER memories_unindexed AFTER DELETE ON memories BEGIN
    DELETE FROM memory_search WHERE rowid = ${rowOf('OLD.id')};
    DELETE FROM memory_search_rows WHERE memory_id = OLD.id;
  END;
`;
