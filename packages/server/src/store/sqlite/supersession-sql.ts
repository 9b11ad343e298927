/**
 * Migration 15 on SQLite (design §6.1): which memory of the brain replaced this one, and when
 * that memory occurred. A memory's history is read backwards through `superseded_by`, so it is
 * indexed where set; a current-only read tests superseded_at on the row it has already read.
 */
export const SUPERSESSION_SQL = `
  ALTER TABLE memories ADD COLUMN superseded_by TEXT;
  ALTER TABLE memories ADD COLUMN superseded_at TEXT;
  CREATE INDEX memories_by_superseder ON memories (brain_id, superseded_by) WHERE superseded_by IS NOT NULL;
`;
