/**
 * Migration 12 on PostgreSQL, as SQLite's memories-when-sql.ts (design §12): when a memory
 * happened (existing memories take their created_at) and its session, indexed for a session's
 * order and for time filters; the speaker joins the generated search vector, weighted as the
 * content (a generated column cannot be altered, so it is made again).
 */
export const MEMORIES_WHEN_SQL = `
  ALTER TABLE memories ADD COLUMN occurred_at timestamptz(3), ADD COLUMN session_id text;
  UPDATE memories SET occurred_at = created_at;
  ALTER TABLE memories ALTER COLUMN occurred_at SET NOT NULL;
  CREATE INDEX memories_by_session ON memories (brain_id, session_id, occurred_at, id) WHERE session_id IS NOT NULL;
  CREATE INDEX memories_by_occurrence ON memories (brain_id, occurred_at);

  DROP INDEX memories_search;
  ALTER TABLE memories DROP COLUMN search_vector;
  ALTER TABLE memories ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', tags::text), 'A')
      || setweight(to_tsvector('english', coalesce(speaker, '')), 'B')
      || setweight(to_tsvector('english', content), 'B')
  ) STORED;
  CREATE INDEX memories_search ON memories USING gin (search_vector);
`;
