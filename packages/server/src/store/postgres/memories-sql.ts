/**
 * Migration 6 on PostgreSQL: the same memories table as SQLite's memories-sql.ts, with a
 * generated, weighted tsvector (tags above content) under a GIN index, and snapshots indexed by
 * origin so a memory's promoted snapshots are found without a scan.
 */
const MEMORY_TYPES = `'fact','decision','insight','story','framework','preference','event'`;

export const MEMORIES_SQL = `
  CREATE TABLE memories (
    id                  text COLLATE "C" PRIMARY KEY,
    account_id          text COLLATE "C" NOT NULL,
    brain_id            text COLLATE "C" NOT NULL REFERENCES brains(id),
    content             text NOT NULL,
    memory_type         text NOT NULL CHECK (memory_type IN (${MEMORY_TYPES})),
    speaker             text,
    tags                json NOT NULL,
    source_emotion      text,
    emotional_valence   double precision,
    emotional_intensity double precision,
    promoted_to         text COLLATE "C",
    created_at          timestamptz(3) NOT NULL,
    updated_at          timestamptz(3) NOT NULL,
    search_vector tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', tags::text), 'A') || setweight(to_tsvector('english', content), 'B')
    ) STORED
  );
  CREATE INDEX memories_by_brain ON memories (brain_id, created_at DESC, id DESC);
  CREATE INDEX memories_search ON memories USING gin (search_vector);

  CREATE INDEX snapshots_by_origin ON snapshots (source_id) WHERE source_id IS NOT NULL;
`;
