import { MEMORY_COLUMNS } from '../columns.js';

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

/** A deleted version's place in its chain passes to what replaced it (or to none). */
export const BRIDGE_SUPERSESSION = `UPDATE memories SET superseded_by = @superseded_by, superseded_at = @superseded_at
  WHERE brain_id = @brain_id AND superseded_by = @id`;
/** The brain's memories replaced by any of @ids (a JSON array). */
export const REPLACED_MEMORIES = `SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE brain_id = @brain_id
  AND superseded_by IN (SELECT value FROM json_each(@ids))`;
