import type { Migration } from '../migration.js';
import { KNOWLEDGE_SQL } from './knowledge-sql.js';
import { MEMORIES_SQL } from './memories-sql.js';
import { MEMORIES_WHEN_SQL } from './memories-when-sql.js';
import { SUPERSESSION_SQL } from './supersession-sql.js';
import { MEMORY_CHANGES_SQL, MEMORY_UPDATES_LOGGED_SQL } from './memory-changes-sql.js';
import { MEMORY_VECTORS_SQL } from './memory-vectors-sql.js';
import { SEARCH_INDEX_SQL } from './search-index-sql.js';
import { WORK_QUEUE_SQL } from './work-queue-sql.js';
import { JOB_WRITTEN_SQL, JOBS_SQL } from './jobs-sql.js';
import { DEFERRED_UPKEEP_MIGRATION_SQL } from './deferred-upkeep-sql.js';
import { SEARCH_CHANGES_SQL } from './text-index/index.js';

const SNAPSHOT_TYPES = `'Belief','Model','Rule','Conviction','Principle'`;
const EDGE_TYPES = `'supports','contradicts','elaborates','caused_by','evolved_from','related_to'`;

export const sqliteMigrations: Migration[] = [
  {
    version: 1,
    name: 'accounts, brains, api keys, snapshots and edges',
    sql: `
      CREATE TABLE accounts (
        id         TEXT PRIMARY KEY,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE brains (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        name       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX brains_by_account ON brains (account_id, created_at DESC, id DESC);

      CREATE TABLE api_keys (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        brain_id   TEXT NOT NULL REFERENCES brains(id),
        key_hash   TEXT NOT NULL UNIQUE,
        prefix     TEXT NOT NULL,
        plan       TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise')),
        rpm        INTEGER,
        burst      INTEGER,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX api_keys_by_account ON api_keys (account_id);

      CREATE TABLE snapshots (
        id                 TEXT PRIMARY KEY,
        account_id         TEXT NOT NULL,
        brain_id           TEXT NOT NULL REFERENCES brains(id),
        name               TEXT NOT NULL,
        core               TEXT NOT NULL,
        type               TEXT NOT NULL CHECK (type IN (${SNAPSHOT_TYPES})),
        one_liner          TEXT,
        story              TEXT,
        moment             TEXT,
        emotion            TEXT,
        source             TEXT,
        trigger_pattern    TEXT,
        method             TEXT,
        steps              TEXT,
        filter             TEXT,
        challenge          TEXT,
        break_test         TEXT,
        risks              TEXT,
        proof              TEXT,
        confidence         REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        significance_score REAL NOT NULL CHECK (significance_score BETWEEN 0 AND 1),
        tags               TEXT NOT NULL DEFAULT '[]',
        source_type        TEXT NOT NULL,
        source_id          TEXT,
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL
      ) STRICT;
      CREATE INDEX snapshots_by_brain ON snapshots (brain_id, created_at DESC, id DESC);
      CREATE INDEX snapshots_by_brain_type ON snapshots (brain_id, type, created_at DESC, id DESC);

      CREATE TABLE edges (
        id         TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        brain_id   TEXT NOT NULL REFERENCES brains(id),
        source_id  TEXT NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        target_id  TEXT NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
        edge_type  TEXT NOT NULL CHECK (edge_type IN (${EDGE_TYPES})),
        strength   REAL NOT NULL CHECK (strength BETWEEN 0 AND 1),
        label      TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK (source_id <> target_id)
      ) STRICT;
      -- One edge per (source, target, type); related_to is non-directional, so its pair is
      -- stored in a canonical order for the uniqueness check. The database, not the
      -- application, decides which of two racing creates wins.
      CREATE UNIQUE INDEX edges_unique_link ON edges (
        CASE WHEN edge_type = 'related_to' AND target_id < source_id THEN target_id ELSE source_id END,
        CASE WHEN edge_type = 'related_to' AND target_id < source_id THEN source_id ELSE target_id END,
        edge_type
      );
      CREATE INDEX edges_by_source ON edges (source_id, created_at DESC, id DESC);
      CREATE INDEX edges_by_target ON edges (target_id, created_at DESC, id DESC);
      CREATE INDEX edges_by_brain ON edges (brain_id, created_at DESC, id DESC);
    `,
  },
  {
    version: 2,
    name: 'counts per brain, kept by triggers',
    // Lists report the total of all matches; at a million snapshots count(*) over the brain's
    // index costs tens of milliseconds per page. These counters make the common totals (a
    // brain's snapshots, by type, its edges, by type) one lookup. Triggers keep them exact in the
    // writing transaction, whatever writes — the API, a bulk load, a cascade.
    sql: `
      CREATE TABLE brain_counts (
        brain_id TEXT NOT NULL,
        kind     TEXT NOT NULL,
        n        INTEGER NOT NULL,
        PRIMARY KEY (brain_id, kind)
      ) STRICT, WITHOUT ROWID;

      INSERT INTO brain_counts SELECT brain_id, 'snapshots', count(*) FROM snapshots GROUP BY brain_id;
      INSERT INTO brain_counts SELECT brain_id, 'snapshots:' || type, count(*) FROM snapshots GROUP BY brain_id, type;
      INSERT INTO brain_counts SELECT brain_id, 'edges', count(*) FROM edges GROUP BY brain_id;
      INSERT INTO brain_counts SELECT brain_id, 'edges:' || edge_type, count(*) FROM edges GROUP BY brain_id, edge_type;

      CREATE TRIGGER snapshots_counted AFTER INSERT ON snapshots BEGIN
        INSERT INTO brain_counts VALUES (NEW.brain_id, 'snapshots', 1) ON CONFLICT DO UPDATE SET n = n + 1;
        INSERT INTO brain_counts VALUES (NEW.brain_id, 'snapshots:' || NEW.type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER snapshots_uncounted AFTER DELETE ON snapshots BEGIN
        UPDATE brain_counts SET n = n - 1
          WHERE brain_id = OLD.brain_id AND kind IN ('snapshots', 'snapshots:' || OLD.type);
      END;
      CREATE TRIGGER snapshots_recounted AFTER UPDATE OF type ON snapshots WHEN OLD.type <> NEW.type BEGIN
        UPDATE brain_counts SET n = n - 1 WHERE brain_id = OLD.brain_id AND kind = 'snapshots:' || OLD.type;
        INSERT INTO brain_counts VALUES (NEW.brain_id, 'snapshots:' || NEW.type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
      END;

      CREATE TRIGGER edges_counted AFTER INSERT ON edges BEGIN
        INSERT INTO brain_counts VALUES (NEW.brain_id, 'edges', 1) ON CONFLICT DO UPDATE SET n = n + 1;
        INSERT INTO brain_counts VALUES (NEW.brain_id, 'edges:' || NEW.edge_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER edges_uncounted AFTER DELETE ON edges BEGIN
        UPDATE brain_counts SET n = n - 1
          WHERE brain_id = OLD.brain_id AND kind IN ('edges', 'edges:' || OLD.edge_type);
      END;
      CREATE TRIGGER edges_recounted AFTER UPDATE OF edge_type ON edges WHEN OLD.edge_type <> NEW.edge_type BEGIN
        UPDATE brain_counts SET n = n - 1 WHERE brain_id = OLD.brain_id AND kind = 'edges:' || OLD.edge_type;
        INSERT INTO brain_counts VALUES (NEW.brain_id, 'edges:' || NEW.edge_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
      END;
    `,
  },
  {
    version: 3,
    name: 'edge origin and tombstones, auto_link brains, the search index, vectors, background work',
    sql: `
      ALTER TABLE edges ADD COLUMN origin TEXT NOT NULL DEFAULT 'manual' CHECK (origin IN ('manual', 'auto'));
      ALTER TABLE brains ADD COLUMN auto_link INTEGER NOT NULL DEFAULT 0 CHECK (auto_link IN (0, 1));

      -- An edge the user deleted, by (pair, type), so the service never makes or suggests it
      -- again. related_to pairs are kept in canonical order, as in edges_unique_link.
      CREATE TABLE edge_tombstones (
        source_id  TEXT NOT NULL,
        target_id  TEXT NOT NULL,
        edge_type  TEXT NOT NULL,
        brain_id   TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (source_id, target_id, edge_type)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX edge_tombstones_by_target ON edge_tombstones (target_id);
      CREATE TRIGGER snapshots_forget_tombstones AFTER DELETE ON snapshots BEGIN
        DELETE FROM edge_tombstones WHERE source_id = OLD.id OR target_id = OLD.id;
      END;

      ${SEARCH_INDEX_SQL}

      -- One vector per snapshot for the configured embedding model (float32, little-endian).
      -- text_hash says which text it was computed from, so a stale vector is recomputed. Every
      -- write replaces the row, so max(rowid) and the count tell a cached index it is stale.
      CREATE TABLE snapshot_vectors (
        snapshot_id TEXT PRIMARY KEY REFERENCES snapshots(id) ON DELETE CASCADE,
        brain_id    TEXT NOT NULL,
        model       TEXT NOT NULL,
        dimension   INTEGER NOT NULL,
        text_hash   TEXT NOT NULL,
        vector      BLOB NOT NULL,
        updated_at  TEXT NOT NULL
      ) STRICT;
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
    // Every search reads the contradictions of its page and the evolved_from edges into its
    // results. Through the general edge indexes each of those read every edge of a snapshot
    // (about 60 rows for a page of 10 at 100,000 snapshots / 300,000 edges, 0.6 ms). Partial
    // indexes hold only edges of the one type, with the columns the reads need, so that the
    // table is not read; they cost a write only for edges of their type.
    sql: `
      CREATE INDEX edges_contradicts_by_source ON edges (source_id, brain_id, target_id, strength, id)
        WHERE edge_type = 'contradicts';
      CREATE INDEX edges_contradicts_by_target ON edges (target_id, brain_id, source_id, strength, id)
        WHERE edge_type = 'contradicts';
      CREATE INDEX edges_evolutions_by_target ON edges (target_id, brain_id, source_id)
        WHERE edge_type = 'evolved_from';
    `,
  },
  {
    version: 7,
    name: 'import checkpoints',
    // Where each import stands (design §15.2): written in the same transaction as each batch of
    // rows, so an import killed at any moment resumes after the last batch that committed.
    sql: `
      CREATE TABLE import_runs (
        id         TEXT PRIMARY KEY,
        lines_done INTEGER NOT NULL,
        finished   INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
        updated_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 9,
    name: 'memory vectors, and embed tasks for memories',
    sql: MEMORY_VECTORS_SQL,
  },
  {
    version: 10,
    name: 'insert triggers of the search index and counts deferred to the writer of a batch',
    sql: DEFERRED_UPKEEP_MIGRATION_SQL,
  },
  {
    version: 11,
    name: 'the log of search index changes, for the in-memory text index',
    sql: SEARCH_CHANGES_SQL,
  },
  {
    version: 12,
    name: 'when a memory happened, its session, and its speaker in the search index',
    sql: MEMORIES_WHEN_SQL,
  },
  {
    version: 13,
    name: "a job's output, recorded in the transaction that writes it",
    sql: JOB_WRITTEN_SQL,
  },
  {
    version: 14,
    name: 'the log of memory index changes, for the in-memory word index of memories',
    sql: MEMORY_CHANGES_SQL,
  },
  {
    version: 15,
    name: 'which memory replaced a memory, and when (design §6.1)',
    sql: SUPERSESSION_SQL,
  },
  {
    version: 16,
    name: 'every update of a memory in the log of memory index changes, for what the word index keeps',
    sql: MEMORY_UPDATES_LOGGED_SQL,
  },
];
