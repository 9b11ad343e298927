/**
 * Migration 5 on PostgreSQL: jobs (design §14) and the responses kept for `Idempotency-Key`,
 * the same tables as SQLite's. Lease times are the database's clock (now()), so every instance
 * agrees on them. JSON is kept as text: it is written and read whole, never queried into.
 */
export const JOBS_SQL = `
  CREATE TABLE jobs (
    id             text COLLATE "C" PRIMARY KEY,
    account_id     text COLLATE "C" NOT NULL,
    key_id         text COLLATE "C" NOT NULL,
    kind           text NOT NULL,
    status         text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    progress_phase text NOT NULL DEFAULT 'queued',
    progress_done  integer NOT NULL DEFAULT 0,
    progress_total integer NOT NULL DEFAULT 0,
    input          text NOT NULL,
    result         text,
    error          text,
    attempts       integer NOT NULL DEFAULT 0,
    lease_owner    text,
    leased_until   timestamptz(3),
    created_at     timestamptz(3) NOT NULL,
    updated_at     timestamptz(3) NOT NULL
  );
  -- Only unfinished jobs are ever looked for by status: finished ones stay out of the index.
  CREATE INDEX jobs_unfinished ON jobs (created_at, id) WHERE status IN ('queued', 'running');
  CREATE INDEX jobs_by_account ON jobs (account_id, created_at DESC, id DESC);

  CREATE TABLE idempotency_keys (
    account_id  text COLLATE "C" NOT NULL,
    key         text COLLATE "C" NOT NULL,
    fingerprint text NOT NULL,
    token       text NOT NULL,
    status      integer,
    headers     text,
    body        text,
    created_at  timestamptz(3) NOT NULL,
    PRIMARY KEY (account_id, key)
  );
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
`;

/** Migration 13, as SQLite's (sqlite/jobs-sql.ts): what a job's work wrote, set with its output. */
export const JOB_WRITTEN_SQL = `ALTER TABLE jobs ADD COLUMN written text;`;

/** As SQLite's RECORD_JOB_OUTPUT: $1 the job, $2 its runner, $3 the output. */
export const RECORD_JOB_OUTPUT = `UPDATE jobs SET written = $3
  WHERE id = $1 AND lease_owner = $2 AND status = 'running' AND written IS NULL`;
