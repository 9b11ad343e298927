import type { Migration } from '../migration.js';
import { KEY_CHANGES_CHANNEL } from './key-cache.js';
import { KNOWLEDGE_SQL } from './knowledge-sql.js';
import { MEMORIES_SQL } from './memories-sql.js';
import { MEMORIES_WHEN_SQL } from './memories-when-sql.js';
import { SUPERSESSION_SQL } from './supersession-sql.js';
import { MEMORY_VECTORS_SQL } from './memory-vectors-sql.js';
import { SEARCH_INDEX_SQL } from './search-index-sql.js';
import { WORK_QUEUE_SQL } from './work-queue-sql.js';
import { JOB_WRITTEN_SQL, JOBS_SQL } from './jobs-sql.js';

const SNAPSHOT_TYPES = `'Belief','Model','Rule','Conviction','Principle'`;
const EDGE_TYPES = `'supports','contradicts','elaborates','caused_by','evolved_from','related_to'`;

/**
 * The same schema as SQLite's, in PostgreSQL's types. Ids use the "C" collation so that
 * `id DESC` orders exactly as SQLite's binary comparison does; `emotion` and `tags` are `json`,
 * not `jsonb`, because jsonb reorders an object's keys and the API returns emotion as sent.
 */
export const postgresMigrations: Migration[] = [
  {
    version: 1,
    name: 'accounts, brains, api keys, snapshots and edges',
    sql: `
      CREATE TABLE accounts (
        id         text COLLATE "C" PRIMARY KEY,
        created_at timestamptz(3) NOT NULL
      );

      CREATE TABLE brains (
        id         text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL REFERENCES accounts(id),
        name       text NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      );
      CREATE INDEX brains_by_account ON brains (account_id, created_at DESC, id DESC);

      CREATE TABLE api_keys (
        id         text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL REFERENCES accounts(id),
        brain_id   text COLLATE "C" NOT NULL REFERENCES brains(id),
        key_hash   text COLLATE "C" NOT NULL UNIQUE,
        prefix     text NOT NULL,
        plan       text NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise')),
        rpm        integer,
        burst      integer,
        created_at timestamptz(3) NOT NULL,
        revoked_at timestamptz(3)
      );
      CREATE INDEX api_keys_by_account ON api_keys (account_id);

      CREATE TABLE snapshots (
        id                 text COLLATE "C" PRIMARY KEY,
        account_id         text COLLATE "C" NOT NULL,
        brain_id           text COLLATE "C" NOT NULL REFERENCES brains(id),
        name               text NOT NULL,
        core               text NOT NULL,
        type               text NOT NULL CHECK (type IN (${SNAPSHOT_TYPES})),
        one_liner          text,
        story              text,
        moment             text,
        emotion            json,
        source             text,
        trigger_pattern    text,
        method             text,
        steps              text,
        filter             text,
        challenge          text,
        break_test         text,
        risks              text,
        proof              text,
        confidence         double precision NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        significance_score double precision NOT NULL CHECK (significance_score BETWEEN 0 AND 1),
        tags               json NOT NULL DEFAULT '[]',
        source_type        text NOT NULL,
        source_id          text,
        created_at         timestamptz(3) NOT NULL,
        updated_at         timestamptz(3) NOT NULL
      );
      CREATE INDEX snapshots_by_brain ON snapshots (brain_id, created_at DESC, id DESC);
      CREATE INDEX snapshots_by_brain_type ON snapshots (brain_id, type, created_at DESC, id DESC);

      CREATE TABLE edges (
        id         text COLLATE "C" PRIMARY KEY,
        account_id text COLLATE "C" NOT NULL,
        brain_id   text COLLATE "C" NOT NULL REFERENCES brains(id),
        source_id  text COLLATE "C" NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        target_id  text COLLATE "C" NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        edge_type  text NOT NULL CHECK (edge_type IN (${EDGE_TYPES})),
        strength   double precision NOT NULL CHECK (strength BETWEEN 0 AND 1),
        label      text,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        CHECK (source_id <> target_id)
      );
      -- One edge per (source, target, type); related_to is non-directional, so its pair is
      -- put in a canonical order for the check. The database decides which racing create wins.
      CREATE UNIQUE INDEX edges_unique_link ON edges (
        (CASE WHEN edge_type = 'related_to' AND target_id < source_id THEN target_id ELSE source_id END),
        (CASE WHEN edge_type = 'related_to' AND target_id < source_id THEN source_id ELSE target_id END),
        edge_type
      );
      CREATE INDEX edges_by_source ON edges (source_id, created_at DESC, id DESC);
      CREATE INDEX edges_by_target ON edges (target_id, created_at DESC, id DESC);
      CREATE INDEX edges_by_brain ON edges (brain_id, created_at DESC, id DESC);
    `,
  },
  {
    version: 2,
    name: 'notify on api key changes, for the key caches of running instances',
    sql: `
      CREATE FUNCTION snapgraph_notify_api_keys() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${KEY_CHANGES_CHANNEL}', '');
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE ON api_keys
        FOR EACH STATEMENT EXECUTE FUNCTION snapgraph_notify_api_keys();
    `,
  },
  {
    version: 3,
    name: 'edge origin and tombstones, auto_link brains, the search index, vectors, background work',
    sql: `
      ALTER TABLE edges ADD COLUMN origin text NOT NULL DEFAULT 'manual' CHECK (origin IN ('manual', 'auto'));
      ALTER TABLE brains ADD COLUMN auto_link boolean NOT NULL DEFAULT false;

      -- An edge the user deleted, by (pair, type): never made or suggested again by the service.
      -- related_to pairs are kept in canonical order, as in edges_unique_link.
      CREATE TABLE edge_tombstones (
        source_id  text COLLATE "C" NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        target_id  text COLLATE "C" NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        edge_type  text NOT NULL,
        brain_id   text COLLATE "C" NOT NULL,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (source_id, target_id, edge_type)
      );
      CREATE INDEX edge_tombstones_by_target ON edge_tombstones (target_id);

      ${SEARCH_INDEX_SQL}

      -- One vector per snapshot for the configured embedding model (float32, little-endian).
      CREATE TABLE snapshot_vectors (
        snapshot_id text COLLATE "C" PRIMARY KEY REFERENCES snapshots(id) ON DELETE CASCADE,
        brain_id    text COLLATE "C" NOT NULL,
        model       text NOT NULL,
        dimension   integer NOT NULL,
        text_hash   text NOT NULL,
        vector      bytea NOT NULL,
        updated_at  timestamptz(3) NOT NULL,
        -- Moves on every write of a vector: with the count, what tells a cached index it is stale.
        version     bigint GENERATED BY DEFAULT AS IDENTITY
      );
      CREATE INDEX snapshot_vectors_by_brain ON snapshot_vectors (brain_id, model);

      ${WORK_QUEUE_SQL}
    `,
  },
  {
    version: 4,
    name: 'crystallize runs and captures, knowledge sources and entries',
    sql: KNOWLEDGE_SQL,
  },
  {
    version: 5,
    name: 'jobs and the responses kept for Idempotency-Key',
    sql: JOBS_SQL,
  },
  {
    version: 6,
    name: 'memories and their full-text index, snapshots by origin',
    sql: MEMORIES_SQL,
  },
  {
    version: 8,
    name: 'indexes of contradicts and evolved_from edges, for search',
    // As on SQLite (its migration 8): the contradictions of a search's page and the
    // evolved_from edges into its results, without reading every edge of each snapshot.
    sql: `
      CREATE INDEX edges_contradicts_by_source ON edges (source_id, brain_id) INCLUDE (target_id, strength, id)
        WHERE edge_type = 'contradicts';
      CREATE INDEX edges_contradicts_by_target ON edges (target_id, brain_id) INCLUDE (source_id, strength, id)
        WHERE edge_type = 'contradicts';
      CREATE INDEX edges_evolutions_by_target ON edges (target_id, brain_id) INCLUDE (source_id)
        WHERE edge_type = 'evolved_from';
    `,
  },
  {
    version: 7,
    name: 'import checkpoints',
    // Where each import stands (design §15.2): written in the same transaction as each batch.
    sql: `
      CREATE TABLE import_runs (
        id         text COLLATE "C" PRIMARY KEY,
        lines_done bigint NOT NULL,
        finished   boolean NOT NULL DEFAULT false,
        updated_at timestamptz(3) NOT NULL
      );
    `,
  },
  {
    version: 9,
    name: 'memory vectors, and embed tasks for memories',
    sql: MEMORY_VECTORS_SQL,
  },
  {
    version: 12,
    name: 'when a memory happened, its session, and its speaker in the search vector',
    sql: MEMORIES_WHEN_SQL,
  },
  {
    version: 13,
    name: "a job's output, recorded in the transaction that writes it",
    sql: JOB_WRITTEN_SQL,
  },
  {
    version: 15,
    name: 'which memory replaced a memory, and when (design §6.1)',
    sql: SUPERSESSION_SQL,
  },
];
