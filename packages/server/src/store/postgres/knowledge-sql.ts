/**
 * Migration 4 on PostgreSQL: the same tables as SQLite's knowledge-sql.ts. JSON lists are
 * `json` (kept as written); entries get a generated, weighted tsvector like snapshots'.
 */
const ENTRY_TYPES = `'concept','framework','protocol','principle','technique','quote','case_study','definition'`;

export const KNOWLEDGE_SQL = `
  CREATE TABLE crystallize_runs (
    id           text COLLATE "C" PRIMARY KEY,
    account_id   text COLLATE "C" NOT NULL,
    brain_id     text COLLATE "C" NOT NULL REFERENCES brains(id),
    status       text NOT NULL CHECK (status IN ('succeeded', 'review')),
    source_type  text NOT NULL,
    agent_id     text,
    session_id   text,
    snapshot_ids json NOT NULL,
    capture_ids  json NOT NULL,
    usage        json NOT NULL,
    meta         json NOT NULL,
    created_at   timestamptz(3) NOT NULL
  );

  CREATE TABLE captures (
    id          text COLLATE "C" PRIMARY KEY,
    account_id  text COLLATE "C" NOT NULL,
    brain_id    text COLLATE "C" NOT NULL REFERENCES brains(id),
    run_id      text COLLATE "C" NOT NULL REFERENCES crystallize_runs(id),
    snapshot    json NOT NULL,
    status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected')),
    snapshot_id text COLLATE "C",
    created_at  timestamptz(3) NOT NULL,
    resolved_at timestamptz(3)
  );
  CREATE INDEX captures_pending ON captures (brain_id, created_at DESC, id DESC) WHERE status = 'pending';

  CREATE TABLE knowledge_sources (
    id           text COLLATE "C" PRIMARY KEY,
    account_id   text COLLATE "C" NOT NULL,
    brain_id     text COLLATE "C" NOT NULL REFERENCES brains(id),
    source_type  text NOT NULL,
    title        text NOT NULL,
    author       text,
    url          text,
    domain       text,
    tags         json NOT NULL,
    snapshot_ids json NOT NULL,
    created_at   timestamptz(3) NOT NULL,
    updated_at   timestamptz(3) NOT NULL
  );
  CREATE INDEX knowledge_sources_by_brain ON knowledge_sources (brain_id, created_at DESC, id DESC);

  CREATE TABLE knowledge_entries (
    id         text COLLATE "C" PRIMARY KEY,
    account_id text COLLATE "C" NOT NULL,
    brain_id   text COLLATE "C" NOT NULL,
    source_id  text COLLATE "C" NOT NULL REFERENCES knowledge_sources(id) ON DELETE CASCADE,
    position   integer NOT NULL,
    entry_type text NOT NULL CHECK (entry_type IN (${ENTRY_TYPES})),
    title      text NOT NULL,
    content    text NOT NULL,
    domain     text,
    mastery    double precision NOT NULL DEFAULT 0,
    created_at timestamptz(3) NOT NULL,
    updated_at timestamptz(3) NOT NULL,
    search_vector tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')
    ) STORED
  );
  CREATE INDEX knowledge_entries_by_source ON knowledge_entries (source_id, position);
  CREATE INDEX knowledge_entries_search ON knowledge_entries USING gin (search_vector);
`;
