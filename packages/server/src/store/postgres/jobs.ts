import type pg from 'pg';
import type { Page, PageOf } from '../../model.js';
import type { JobFilter, JobOutcome, JobProgress, JobRecord, JobStore, NewJob } from '../job-store.js';
import { JOB_COLUMNS, jobFromRow, type JobRow } from '../job-rows.js';

const lease = (param: string) => `now() + make_interval(secs => ${param}::double precision / 1000)`;
const HELD = `id = $1 AND lease_owner = $2 AND status = 'running'`;

/** The account's jobs matching the list's filters (a null filter matches every job). */
const LISTED = `account_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR kind = $3)`;

const SQL = {
  jobInsert: `INSERT INTO jobs (id, account_id, key_id, kind, input, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $6)`,
  jobUnfinished: `SELECT count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running')`,
  jobList: `SELECT ${JOB_COLUMNS} FROM jobs WHERE ${LISTED}
      AND ($6::timestamptz IS NULL OR (created_at, id) < ($6, $7))
    ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
  jobCount: `SELECT count(*)::int AS n FROM jobs WHERE ${LISTED}`,
  jobGet: `SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND account_id = $2`,
  // Rows another instance is claiming are skipped, not waited for: each job is leased to one runner.
  jobClaim: `UPDATE jobs SET status = 'running', lease_owner = $1, leased_until = ${lease('$3')},
      attempts = attempts + 1, updated_at = $4
    WHERE id IN (SELECT id FROM jobs WHERE status IN ('queued', 'running')
                   AND (status = 'queued' OR leased_until IS NULL OR leased_until < now())
                   AND kind = ANY($5::text[])
                 ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
    RETURNING ${JOB_COLUMNS}`,
  jobRenew: `UPDATE jobs SET leased_until = ${lease('$3')} WHERE ${HELD}`,
  jobProgress: `UPDATE jobs SET progress_phase = $3, progress_done = $4, progress_total = $5, updated_at = $6 WHERE ${HELD}`,
  jobFinish: `UPDATE jobs SET status = $3, result = $4, error = $5, written = NULL, lease_owner = NULL,
      leased_until = NULL,
      progress_phase = $6, progress_done = $7, progress_total = $8, updated_at = $9 WHERE ${HELD}`,
  jobRelease: `UPDATE jobs SET status = 'queued', lease_owner = NULL, leased_until = NULL,
      attempts = GREATEST(attempts - 1, 0), updated_at = $3 WHERE ${HELD}`,
} as const;

/** Jobs on PostgreSQL: claimed with FOR UPDATE SKIP LOCKED and a lease. */
export class PostgresJobStore implements JobStore {
  constructor(private readonly pool: pg.Pool) {}

  private query<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[]) {
    return this.pool.query<R>({ name, text: SQL[name], values });
  }

  private async changed(name: keyof typeof SQL, values: unknown[]): Promise<boolean> {
    return ((await this.query(name, values)).rowCount ?? 0) > 0;
  }

  async insert(job: NewJob): Promise<void> {
    await this.query('jobInsert', [job.id, job.account_id, job.key_id, job.kind, job.input, job.created_at]);
  }

  async list(accountId: string, filter: JobFilter, page: Page): Promise<PageOf<JobRecord>> {
    const where = [accountId, filter.status ?? null, filter.kind ?? null];
    const after = [page.after?.created_at ?? null, page.after?.id ?? null];
    const [rows, count] = await Promise.all([
      this.query<JobRow>('jobList', [...where, page.limit, page.offset, ...after]),
      this.query<{ n: number }>('jobCount', where),
    ]);
    return { rows: rows.rows.map(jobFromRow), total: count.rows[0]?.n ?? 0 };
  }

  async unfinished(): Promise<number> {
    return (await this.query<{ n: number }>('jobUnfinished', [])).rows[0]?.n ?? 0;
  }

  async get(accountId: string, id: string): Promise<JobRecord | undefined> {
    const row = (await this.query<JobRow>('jobGet', [id, accountId])).rows[0];
    return row && jobFromRow(row);
  }

  async claim(owner: string, kinds: string[], limit: number, leaseMs: number, now: string): Promise<JobRecord[]> {
    const { rows } = await this.query<JobRow>('jobClaim', [owner, limit, leaseMs, now, kinds]);
    return rows.map(jobFromRow).sort((a, b) => (a.created_at + a.id < b.created_at + b.id ? -1 : 1));
  }

  renew(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return this.changed('jobRenew', [id, owner, leaseMs]);
  }

  setProgress(id: string, owner: string, progress: JobProgress, now: string): Promise<boolean> {
    return this.changed('jobProgress', [id, owner, progress.phase, progress.done, progress.total, now]);
  }

  finish(id: string, owner: string, outcome: JobOutcome, progress: JobProgress, now: string): Promise<boolean> {
    const result = outcome.status === 'succeeded' ? outcome.result : null;
    const error = outcome.status === 'failed' ? outcome.error : null;
    const values = [id, owner, outcome.status, result, error, progress.phase, progress.done, progress.total, now];
    return this.changed('jobFinish', values);
  }

  async release(id: string, owner: string, now: string): Promise<void> {
    await this.query('jobRelease', [id, owner, now]);
  }
}
