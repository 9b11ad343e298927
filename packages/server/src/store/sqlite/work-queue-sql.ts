import { SEARCHED_COLUMNS } from '../searched-columns.js';

/**
 * Background work (auto-linking, embeddings), durable in the database: a task is queued by a
 * trigger in the same transaction as the write that calls for it, so no acknowledged write can
 * lose its follow-up work, whatever happens to the process afterwards. One row per (kind,
 * snapshot): a snapshot written again before its task ran bumps `version` instead of queuing
 * twice, and a worker that finishes an older version leaves the newer one queued.
 *
 * Times are the database's own clock in unix milliseconds, so every instance agrees on them.
 */
const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

const queue = (kind: string, row: string) => `
  INSERT INTO background_work (kind, subject_id, brain_id, run_after)
    VALUES ('${kind}', ${row}.id, ${row}.brain_id, ${NOW_MS})
    ON CONFLICT (kind, subject_id) DO UPDATE SET version = version + 1, attempts = 0, run_after = excluded.run_after;`;

const linking = (row: string) => `(SELECT auto_link FROM brains WHERE id = ${row}.brain_id) = 1`;
const embedding = `EXISTS (SELECT 1 FROM service_flags WHERE name = 'embeddings')`;
const textChanged = SEARCHED_COLUMNS.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');

export const WORK_QUEUE_SQL = `
  CREATE TABLE background_work (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    kind         TEXT NOT NULL CHECK (kind IN ('auto_link', 'embed')),
    subject_id   TEXT NOT NULL,
    brain_id     TEXT NOT NULL,
    version      INTEGER NOT NULL DEFAULT 1,
    attempts     INTEGER NOT NULL DEFAULT 0,
    run_after    INTEGER NOT NULL,
    leased_until INTEGER,
    last_error   TEXT,
    UNIQUE (kind, subject_id)
  ) STRICT;
  CREATE INDEX background_work_due ON background_work (run_after, id);
  CREATE INDEX background_work_by_brain ON background_work (brain_id, kind);

  -- Settings of the running service that triggers must see ('embeddings' while a provider is on).
  CREATE TABLE service_flags (name TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;

  CREATE TRIGGER snapshots_queue_link AFTER INSERT ON snapshots WHEN ${linking('NEW')} BEGIN
    ${queue('auto_link', 'NEW')}
  END;
  CREATE TRIGGER snapshots_queue_relink AFTER UPDATE ON snapshots WHEN (${textChanged}) AND ${linking('NEW')} BEGIN
    ${queue('auto_link', 'NEW')}
  END;
  CREATE TRIGGER snapshots_queue_embed AFTER INSERT ON snapshots WHEN ${embedding} BEGIN
    ${queue('embed', 'NEW')}
  END;
  CREATE TRIGGER snapshots_queue_reembed AFTER UPDATE ON snapshots WHEN (${textChanged}) AND ${embedding} BEGIN
    ${queue('embed', 'NEW')}
  END;
  CREATE TRIGGER snapshots_drop_work AFTER DELETE ON snapshots BEGIN
    DELETE FROM background_work WHERE subject_id = OLD.id;
  END;
  -- A brain that opts in has its existing snapshots linked too.
  CREATE TRIGGER brains_link_all AFTER UPDATE OF auto_link ON brains WHEN NEW.auto_link = 1 AND OLD.auto_link = 0 BEGIN
    INSERT INTO background_work (kind, subject_id, brain_id, run_after)
      SELECT 'auto_link', id, brain_id, ${NOW_MS} FROM snapshots WHERE brain_id = NEW.id
      ON CONFLICT (kind, subject_id) DO NOTHING;
  END;
`;
