/**
 * Migration 4 on SQLite: crystallize runs and their captures, knowledge sources and entries
 * (design §11, §13). Lists and ids are JSON text, as snapshots' tags are.
 */
const ENTRY_TYPES = `'concept','framework','protocol','principle','technique','quote','case_study','definition'`;

export const KNOWLEDGE_SQL = `
  CREATE TABLE crystallize_runs (
    id           TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL,
    brain_id     TEXT NOT NULL REFERENCES brains(id),
    status       TEXT NOT NULL CHECK (status IN ('succeeded', 'review')),
    source_type  TEXT NOT NULL,
    agent_id     TEXT,
    session_id   TEXT,
    snapshot_ids TEXT NOT NULL,
    capture_ids  TEXT NOT NULL,
    usage        TEXT NOT NULL,
    meta         TEXT NOT NULL,
    created_at   TEXT NOT NULL
  ) STRICT;

  -- A capture stays until accepted or rejected; then only the decision is kept.
  CREATE TABLE captures (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL,
    brain_id    TEXT NOT NULL REFERENCES brains(id),
    run_id      TEXT NOT NULL REFERENCES crystallize_runs(id),
    snapshot    TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
    snapshot_id TEXT,
    created_at  TEXT NOT NULL,
    resolved_at TEXT
  ) STRICT;
  CREATE INDEX captures_pending ON captures (brain_id, created_at DESC, id DESC) WHERE status = 'pending';

  CREATE TABLE knowledge_sources (
    id           TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL,
    brain_id     TEXT NOT NULL REFERENCES brains(id),
    source_type  TEXT NOT NULL,
    title        TEXT NOT NULL,
    author       TEXT,
    url          TEXT,
    domain       TEXT,
    tags         TEXT NOT NULL,
    snapshot_ids TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
  ) STRICT;
  CREATE INDEX knowledge_sources_by_brain ON knowledge_sources (brain_id, created_at DESC, id DESC);

  -- The rowid (implicit) keys the entries' full-text index.
  CREATE TABLE knowledge_entries (
    id         TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    brain_id   TEXT NOT NULL,
    source_id  TEXT NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    entry_type TEXT NOT NULL CHECK (entry_type IN (${ENTRY_TYPES})),
    title      TEXT NOT NULL,
    content    TEXT NOT NULL,
    domain     TEXT,
    mastery    REAL NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX knowledge_entries_by_source ON knowledge_entries (source_id, position);
  CREATE INDEX knowledge_entries_by_brain ON knowledge_entries (brain_id);

  CREATE VIRTUAL TABLE knowledge_entry_search USING fts5(
    title, content, content = 'knowledge_entries', content_rowid = 'rowid', tokenize = 'porter unicode61'
  );
  CREATE TRIGGER knowledge_entries_indexed AFTER INSERT ON knowledge_entries BEGIN
    INSERT INTO knowledge_entry_search (rowid, title, content) VALUES (NEW.rowid, NEW.title, NEW.content);
  END;
  CREATE TRIGGER knowledge_entries_unindexed AFTER DELETE ON knowledge_entries BEGIN
    INSERT INTO knowledge_entry_search (knowledge_entry_search, rowid, title, content)
      VALUES ('delete', OLD.rowid, OLD.title, OLD.content);
  END;
  CREATE TRIGGER knowledge_entries_reindexed AFTER UPDATE OF title, content ON knowledge_entries BEGIN
    INSERT INTO knowledge_entry_search (knowledge_entry_search, rowid, title, content)
      VALUES ('delete', OLD.rowid, OLD.title, OLD.content);
    INSERT INTO knowledge_entry_search (rowid, title, content) VALUES (NEW.rowid, NEW.title, NEW.content);
  END;
`;
