/**
 * Migration 5 on SQLite: jobs (design §14) and the responses kept for `Idempotency-Key`.
 * Lease times are the database's clock in unix milliseconds, as in background_work, so every
 * process on the file agrees on them; created_at/updated_at are the service's ISO times.
 */
export const JOBS_SQL = `
  CREATE TABLE jobs (
    id             TEXT PRIMARY KEY,
    account_id     TEXT NOT NULL,
    key_id         TEXT NOT NULL,
    kind           TEXT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    progress_phase TEXT NOT NULL DEFAULT 'queued',
    progress_done  INTEGER NOT NULL DEFAULT 0,
    progress_total INTEGER NOT NULL DEFAULT 0,
    input          TEXT NOT NULL,
    result         TEXT,
    error          TEXT,
    attempts       INTEGER NOT NULL DEFAULT 0,
    lease_owner    TEXT,
    leased_until   INTEGER,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
  ) STRICT;
  -- Only unfinished jobs are ever looked for by status: finished ones stay out of the index.
  CREATE INDEX jobs_unfinished ON jobs (created_at, id) WHERE status IN ('queued', 'running');
  CREATE INDEX jobs_by_account ON jobs (account_id, created_at DESC, id DESC);

  CREATE TABLE idempotency_keys (
    account_id  TEXT NOT NULL,
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    token       TEXT NOT NULL,
    status      INTEGER,
    headers     TEXT,
    body        TEXT,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (account_id, key)
  ) STRICT;
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
`;

/**
 * Migration 13: what a job's work wrote (`{ draft, edges }`, JSON), set in the same transaction
 * as its output, while the job is still running: a rerun of a job whose runner died after that
 * commit answers with it instead of working again (domain/jobs/run.ts). Cleared when the job ends.
 */
export const JOB_WRITTEN_SQL = `ALTER TABLE jobs ADD COLUMN written TEXT;`;

/**
 * Records a job's output write (KnowledgeWrite.job) in that write's transaction: only for the
 * runner that holds the running job, and once. No row changed: the write is refused.
 */
export const RECORD_JOB_OUTPUT = `UPDATE jobs SET written = @written
  WHERE id = @id AND lease_owner = @owner AND status = 'running' AND written IS NULL`;
