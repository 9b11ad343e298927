/**
 * Migration 6 on SQLite: memories (design §12) with their full-text index, and an index of
 * snapshots by origin, so the snapshots a memory was promoted into are found without a scan.
 */
const MEMORY_TYPES = `'fact','decision','insight','story','framework','preference','event'`;

/**
 * The full-text index of memories: contentless FTS5 keyed by the integer key of
 * `memory_search_rows`, which maps it to the memory, its brain and type. That key is the brain's
 * number (`memory_brains`) × 2^30 + a sequence within the brain, so a search is confined to its
 * brain by a rowid range, which FTS5 applies while it walks its doclists: counting the matches
 * and ranking the page read no table at all. (A look-up per match in a row map, as snapshots
 * do, cost more than the ranking itself at 100,000 memories; a brain token in the index made
 * bm25 walk the brain's whole doclist.) Columns, in the order bm25() takes their weights:
 * content, tags. Limits: 2^30 memories written to one brain, and 2^23 brains with memories, so
 * that every key stays an exact JavaScript number.
 */
export const BRAIN_SPAN = 1_073_741_824;
const indexed = (row: 'NEW' | 'OLD') =>
  `${row}.content, (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(${row}.tags))`;
const rowOf = (id: string) => `(SELECT rowid FROM memory_search_rows WHERE memory_id = ${id})`;

export const MEMORIES_SQL = `
  CREATE TABLE memories (
    id                  TEXT PRIMARY KEY,
    account_id          TEXT NOT NULL,
    brain_id            TEXT NOT NULL REFERENCES brains(id),
    content             TEXT NOT NULL,
    memory_type         TEXT NOT NULL CHECK (memory_type IN (${MEMORY_TYPES})),
    speaker             TEXT,
    tags                TEXT NOT NULL,
    source_emotion      TEXT,
    emotional_valence   REAL,
    emotional_intensity REAL,
    promoted_to         TEXT,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL
  ) STRICT;
  CREATE INDEX memories_by_brain ON memories (brain_id, created_at DESC, id DESC);

  CREATE TABLE memory_brains (
    n        INTEGER PRIMARY KEY,
    brain_id TEXT NOT NULL UNIQUE
  ) STRICT;
  CREATE TABLE memory_search_rows (
    rowid       INTEGER PRIMARY KEY,
    memory_id   TEXT NOT NULL UNIQUE,
    memory_type TEXT NOT NULL
  ) STRICT;
  CREATE VIRTUAL TABLE memory_search USING fts5(
    content, tags, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_indexed AFTER INSERT ON memories BEGIN
    INSERT INTO memory_brains (brain_id) VALUES (NEW.brain_id) ON CONFLICT DO NOTHING;
    INSERT INTO memory_search_rows (rowid, memory_id, memory_type)
      SELECT coalesce(
               (SELECT max(r.rowid) FROM memory_search_rows r
                WHERE r.rowid BETWEEN b.n * ${BRAIN_SPAN} AND b.n * ${BRAIN_SPAN} + ${BRAIN_SPAN - 1}),
               b.n * ${BRAIN_SPAN}) + 1,
             NEW.id, NEW.memory_type
      FROM memory_brains b WHERE b.brain_id = NEW.brain_id;
    INSERT INTO memory_search (rowid, content, tags) VALUES (${rowOf('NEW.id')}, ${indexed('NEW')});
  END;
  CREATE TRIGGER memories_reindexed AFTER UPDATE OF content, tags, memory_type ON memories BEGIN
    UPDATE memory_search_rows SET memory_type = NEW.memory_type WHERE memory_id = OLD.id;
    DELETE FROM memory_search WHERE rowid = ${rowOf('OLD.id')};
    INSERT INTO memory_search (rowid, content, tags) VALUES (${rowOf('NEW.id')}, ${indexed('NEW')});
  END;
  CREATE TRIGGER memories_unindexed AFTER DELETE ON memories BEGIN
    DELETE FROM memory_search WHERE rowid = ${rowOf('OLD.id')};
    DELETE FROM memory_search_rows WHERE memory_id = OLD.id;
  END;

  CREATE INDEX snapshots_by_origin ON snapshots (source_id) WHERE source_id IS NOT NULL;
`;
