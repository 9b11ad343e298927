import type { JobRecord, JobStatus } from './job-store.js';

/** A job as both stores select it: the progress in three columns. */
export interface JobRow extends Omit<JobRecord, 'progress'> {
  progress_phase: string;
  progress_done: number;
  progress_total: number;
}

export const JOB_COLUMNS =
  'id, account_id, key_id, kind, status, progress_phase, progress_done, progress_total, input, result, error, written, attempts, created_at, updated_at';

export function jobFromRow(row: JobRow): JobRecord {
  return {
    id: row.id,
    account_id: row.account_id,
    key_id: row.key_id,
    kind: row.kind,
    status: row.status as JobStatus,
    progress: { phase: row.progress_phase, done: Number(row.progress_done), total: Number(row.progress_total) },
    input: row.input,
    result: row.result,
    error: row.error,
    written: row.written ?? null,
    attempts: Number(row.attempts),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
