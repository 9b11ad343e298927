/**
 * What the stores keep for long work run as jobs (design §14) and for `Idempotency-Key`
 * (design §14, §3.8): the `jobs` and `idempotency_keys` tables of migration 5, on both stores.
 */

import type { Edge, JobStatus, Page, PageOf } from '../model.js';

export { JOB_STATUSES, type JobStatus } from '../model.js';

export interface JobProgress {
  phase: string;
  done: number;
  total: number;
}

/** A job as stored; `input`, `result` and `error` are JSON text. */
export interface JobRecord {
  id: string;
  account_id: string;
  key_id: string;
  kind: string;
  status: JobStatus;
  progress: JobProgress;
  input: string;
  /** `{ status, body }` of the synchronous response, when succeeded. */
  result: string | null;
  /** The error body, when failed. */
  error: string | null;
  /**
   * What the job's work wrote (JobOutput as JSON), recorded in the transaction of that write;
   * null before it, and again once the job has ended (its result holds the same).
   */
  written: string | null;
  attempts: number;
  created_at: string;
  updated_at: string;
}

/**
 * A job's output as its work's own write records it (KnowledgeWrite.job): the result as known
 * before the write, and the automatic edges the write made (which only the write knows).
 */
export interface JobOutput<Draft = unknown> {
  draft: Draft;
  edges: Edge[];
}

/** Who writes a job's output, and the result as known before the write (KnowledgeWrite.job). */
export interface JobWrite {
  id: string;
  /** The runner holding the job's lease (JobStore). */
  owner: string;
  draft: unknown;
}

/** The `written` column's text for a job's output write that made `edges`. */
export const jobOutputText = (job: JobWrite, edges: Edge[]): string =>
  JSON.stringify({ draft: job.draft, edges } satisfies JobOutput);

/** Which of an account's jobs to list (GET /v1/jobs, design §14.3). */
export interface JobFilter {
  status?: JobStatus | undefined;
  kind?: string | undefined;
}

export type NewJob = Pick<JobRecord, 'id' | 'account_id' | 'key_id' | 'kind' | 'input' | 'created_at'>;

export type JobOutcome = { status: 'succeeded'; result: string } | { status: 'failed'; error: string };

/**
 * The durable queue of jobs. A job is run under a lease: `owner` (one runner of one process)
 * holds it until `leased_until` (the database's clock, so every instance agrees) and renews it
 * while it works; every write of a running job is conditional on still holding the lease, so a
 * runner that lost it (it stalled, another took over) changes nothing.
 */
export interface JobStore {
  insert(job: NewJob): Promise<void>;
  /** Jobs not finished yet (queued or running), for metrics. */
  unfinished(): Promise<number>;
  /** The account's job, or undefined (another account's job is not found). */
  get(accountId: string, id: string): Promise<JobRecord | undefined>;
  /** A page of the account's jobs, newest first (design §3.6), and how many match in all. */
  list(accountId: string, filter: JobFilter, page: Page): Promise<PageOf<JobRecord>>;
  /**
   * Leases up to `limit` jobs to `owner`, oldest first: queued ones, and running ones whose
   * lease ran out (their runner died), of these kinds only (the ones this process can run).
   * Each claim counts one attempt and marks the job running.
   */
  claim(owner: string, kinds: string[], limit: number, leaseMs: number, now: string): Promise<JobRecord[]>;
  /** Extends the lease; false when `owner` no longer holds it. */
  renew(id: string, owner: string, leaseMs: number): Promise<boolean>;
  setProgress(id: string, owner: string, progress: JobProgress, now: string): Promise<boolean>;
  /** Records the outcome (clearing `written`) and ends the lease; false (nothing written) when `owner` lost it. */
  finish(id: string, owner: string, outcome: JobOutcome, progress: JobProgress, now: string): Promise<boolean>;
  /** Gives the job back to the queue (shutdown): the attempt does not count. */
  release(id: string, owner: string, now: string): Promise<void>;
}

/** A response kept for an `Idempotency-Key`; `status` null while the first request is in flight. */
export interface StoredResponse {
  fingerprint: string;
  status: number | null;
  /** JSON text of the headers kept (content-type, location, …). */
  headers: string | null;
  body: string | null;
  created_at: string;
}

export interface IdempotencyReservation {
  accountId: string;
  key: string;
  fingerprint: string;
  /** Names this request's hold on the key: only it may store or release the response. */
  token: string;
  now: string;
  /** A row created before this is forgotten: the key is free again (24 hours). */
  expiredBefore: string;
  /** A row still in flight since before this was abandoned (its process died): free again. */
  abandonedBefore: string;
}

export interface IdempotencyStore {
  /** Holds the key for this request (undefined), or returns what another request left there. */
  reserve(r: IdempotencyReservation): Promise<StoredResponse | undefined>;
  save(accountId: string, key: string, token: string, status: number, headers: string, body: string): Promise<void>;
  /** Forgets the key (the request failed in a way worth retrying). */
  release(accountId: string, key: string, token: string): Promise<void>;
  /** Deletes rows created before `before`; returns how many. */
  purge(before: string): Promise<number>;
}

/**
 * A job's output write refused (KnowledgeWrite.job): its runner no longer holds the lease (it
 * stalled and another runner took the job), or an earlier run already wrote the output. The
 * whole write is rolled back: a job's output is written once, by a runner that holds it.
 */
export class JobOutputRefused extends Error {
  constructor(jobId: string) {
    super(`job ${jobId}: not written, the runner no longer holds the job or its output is already written`);
    this.name = 'JobOutputRefused';
  }
}
