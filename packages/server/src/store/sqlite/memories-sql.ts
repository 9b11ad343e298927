/**
 * Migration 6 on SQLite: memories (DESIGN 4.5) with their full-text index, and an index of
 * snapshots by origin, so the snapshots a memory was promoted into are found without a scan.
 */
const MEMORY_TYPES = `'fact','decision','insight','story','framework','preference','event'`;

/** The tags of a memory row as words for the index (the column holds a JSON array). */
const tagWords = (row: 'NEW' | 'OLD') => `(SELECT group_concat(value, ' ') FROM json_each(${row}.tags))`;

export const MEMORIES_SQL = `
  -- The rowid (implicit) keys the full-text index.
  CREATE TABLE memories (
    id                  TEXT NOT NULL UNIQUE,
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

  -- Contentless: the tags are indexed as words, not as the JSON the table holds.
  CREATE VIRTUAL TABLE memory_search USING fts5(
    content, tags, content = '', tokenize = 'porter unicode61'
  );
  CREATE TRIGGER memories_indexed AFTER INSERT ON memories BEGIN
    INSERT INTO memory_search (rowid, content, tags) VALUES (NEW.rowid, NEW.content, ${tagWords('NEW')});
  END;
  CREATE TRIGGER memories_unindexed AFTER DELETE ON memories BEGIN
    INSERT INTO memory_search (memory_search, rowid, content, tags)
      VALUES ('delete', OLD.rowid, OLD.content, ${tagWords('OLD')});
  END;
  CREATE TRIGGER memories_reindexed AFTER UPDATE OF content, tags ON memories BEGIN
    INSERT INTO memory_search (memory_search, rowid, content, tags)
      VALUES ('delete', OLD.rowid, OLD.content, ${tagWords('OLD')});
    INSERT INTO memory_search (rowid, content, tags) VALUES (NEW.rowid, NEW.content, ${tagWords('NEW')});
  END;

  CREATE INDEX snapshots_by_origin ON snapshots (source_id) WHERE source_id IS NOT NULL;
`;
