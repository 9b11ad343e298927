/** Migration 15 on PostgreSQL, as SQLite's supersession-sql.ts (design §6.1). */
export const SUPERSESSION_SQL = `
  ALTER TABLE memories ADD COLUMN superseded_by text COLLATE "C", ADD COLUMN superseded_at timestamptz(3);
  CREATE INDEX memories_by_superseder ON memories (brain_id, superseded_by) WHERE superseded_by IS NOT NULL;
`;
