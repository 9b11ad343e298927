import type { Page, PageOf } from '../../model.js';
import type { JobFilter, JobOutcome, JobProgress, JobRecord, JobStore, NewJob } from '../job-store.js';
import { JOB_COLUMNS, jobFromRow, type JobRow } from '../job-rows.js';
import type { GroupCommit } from './group-commit.js';
import { lazyStatements } from './lazy-statement.js';
import type { SqliteDatabase } from './open-database.js';

const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;
/** The account's jobs matching the list's filters (a null filter matches every job). */
const LISTED = `account_id = @account_id AND (@status IS NULL OR status = @status) AND (@kind IS NULL OR kind = @kind)`;
const HELD = `id = @id AND lease_owner = @owner AND status = 'running'`;

/**
 * Jobs on SQLite. Claims run in group commit's IMMEDIATE transaction, which holds the file's
 * write lock: two processes on one file never claim the same job.
 */
export class SqliteJobStore implements JobStore {
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    const prepared = lazyStatements(db);
    this.stmt = {
      insert: prepared<never>(
        `INSERT INTO jobs (id, account_id, key_id, kind, input, created_at, updated_at)
         VALUES (@id, @account_id, @key_id, @kind, @input, @created_at, @created_at)`,
      ),
      unfinished: prepared<{ n: number }>(`SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')`),
      get: prepared<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = @id AND account_id = @account_id`),
      list: prepared<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM jobs WHERE ${LISTED}
           AND (@after_at IS NULL OR (created_at, id) < (@after_at, @after_id))
         ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      ),
      count: prepared<{ n: number }>(`SELECT count(*) AS n FROM jobs WHERE ${LISTED}`),
      due: prepared<{ id: string }>(
        `SELECT id FROM jobs WHERE status IN ('queued', 'running')
           AND (status = 'queued' OR leased_until IS NULL OR leased_until < ${NOW_MS})
           AND kind IN (SELECT value FROM json_each(@kinds))
         ORDER BY created_at, id LIMIT @limit`,
      ),
      lease: prepared<JobRow>(
        `UPDATE jobs SET status = 'running', lease_owner = @owner, leased_until = ${NOW_MS} + @lease,
           attempts = attempts + 1, updated_at = @now WHERE id = @id RETURNING ${JOB_COLUMNS}`,
      ),
      renew: prepared<never>(`UPDATE jobs SET leased_until = ${NOW_MS} + @lease WHERE ${HELD}`),
      progress: prepared<never>(
        `UPDATE jobs SET progress_phase = @phase, progress_done = @done, progress_total = @total, updated_at = @now
         WHERE ${HELD}`,
      ),
      finish: prepared<never>(
        `UPDATE jobs SET status = @status, result = @result, error = @error, written = NULL, lease_owner = NULL,
           leased_until = NULL,
           progress_phase = @phase, progress_done = @done, progress_total = @total, updated_at = @now
         WHERE ${HELD}`,
      ),
      release: prepared<never>(
        `UPDATE jobs SET status = 'queued', lease_owner = NULL, leased_until = NULL, attempts = max(attempts - 1, 0),
           updated_at = @now WHERE ${HELD}`,
      ),
    };
  }

  insert(job: NewJob): Promise<void> {
    return this.writes.run(() => void this.stmt.insert().run(job));
  }

  async unfinished(): Promise<number> {
    return this.stmt.unfinished().get({})?.n ?? 0;
  }

  async get(accountId: string, id: string): Promise<JobRecord | undefined> {
    const row = this.stmt.get().get({ id, account_id: accountId });
    return row && jobFromRow(row);
  }

  async list(accountId: string, filter: JobFilter, page: Page): Promise<PageOf<JobRecord>> {
    const where = { account_id: accountId, status: filter.status ?? null, kind: filter.kind ?? null };
    const rows = this.stmt.list().all({
      ...where,
      limit: page.limit,
      offset: page.offset,
      after_at: page.after?.created_at ?? null,
      after_id: page.after?.id ?? null,
    });
    return { rows: rows.map(jobFromRow), total: this.stmt.count().get(where)?.n ?? 0 };
  }

  claim(owner: string, kinds: string[], limit: number, leaseMs: number, now: string): Promise<JobRecord[]> {
    return this.writes.run(() =>
      this.stmt
        .due()
        .all({ limit, kinds: JSON.stringify(kinds) })
        .map(({ id }) => jobFromRow(this.stmt.lease().get({ id, owner, lease: leaseMs, now }) as JobRow)),
    );
  }

  renew(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return this.writes.run(() => this.stmt.renew().run({ id, owner, lease: leaseMs }).changes > 0);
  }

  setProgress(id: string, owner: string, progress: JobProgress, now: string): Promise<boolean> {
    return this.writes.run(() => this.stmt.progress().run({ id, owner, now, ...progress }).changes > 0);
  }

  finish(id: string, owner: string, outcome: JobOutcome, progress: JobProgress, now: string): Promise<boolean> {
    const row = {
      id,
      owner,
      now,
      ...progress,
      status: outcome.status,
      result: outcome.status === 'succeeded' ? outcome.result : null,
      error: outcome.status === 'failed' ? outcome.error : null,
    };
    return this.writes.run(() => this.stmt.finish().run(row).changes > 0);
  }

  release(id: string, owner: string, now: string): Promise<void> {
    return this.writes.run(() => void this.stmt.release().run({ id, owner, now }));
  }
}
