import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ListPage, Principal } from '../../model.js';
import type { JobFilter, JobProgress, JobRecord, JobStatus } from '../../store/job-store.js';
import { pageQuery, pageResult, type PageRequest } from '../cursor.js';
import type { Domain } from '../context.js';
import { jobFunction } from './registry.js';

/** What a queued job keeps of its request, so that it can run in any process later. */
export interface JobInput {
  body: unknown;
  principal: Principal;
  /** The queuing request's id: the `request_id` of the job's error body. */
  request_id: string;
}

/** A job as `GET /v1/jobs/:id` shows it (design §14). */
export interface JobView {
  id: string;
  kind: string;
  status: JobStatus;
  progress: JobProgress;
  result: unknown;
  error: unknown;
  created_at: string;
  updated_at: string;
}

/** Stores a queued job of `kind` and wakes this process's runner; returns the job's id. */
export async function enqueueJob(
  domain: Domain,
  principal: Principal,
  kind: string,
  body: unknown,
  requestId: string,
): Promise<string> {
  if (!jobFunction(kind)) throw new Error(`no job kind "${kind}" is registered`);
  const now = domain.clock.now();
  const input: JobInput = { body, principal, request_id: requestId };
  const id = newId('job', now);
  await domain.store.jobs.insert({
    id,
    account_id: principal.accountId,
    key_id: principal.keyId,
    kind,
    input: JSON.stringify(input),
    created_at: isoTime(now),
  });
  domain.jobs?.nudge();
  return id;
}

export function jobView(job: JobRecord): JobView {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    progress: job.progress,
    result:
      job.status === 'succeeded' && job.result !== null ? (JSON.parse(job.result) as { body: unknown }).body : null,
    error: job.status === 'failed' && job.error !== null ? JSON.parse(job.error) : null,
    created_at: job.created_at,
    updated_at: job.updated_at,
  };
}

/** The caller's job; another account's is not found, exactly like a missing one. */
export async function getJob(domain: Domain, principal: Principal, id: string): Promise<JobView> {
  const job = await domain.store.jobs.get(principal.accountId, id);
  if (!job) throw notFound('job');
  return jobView(job);
}

/** The caller's jobs, newest first, optionally of one status or kind (design §15.3). */
export async function listJobs(
  domain: Domain,
  principal: Principal,
  query: PageRequest & JobFilter,
): Promise<ListPage<JobView>> {
  const filter = { status: query.status, kind: query.kind };
  const page = await domain.store.jobs.list(principal.accountId, filter, pageQuery(query, 'job'));
  const { rows, nextCursor } = pageResult(page.rows, query.limit);
  return { rows: rows.map(jobView), total: page.total, nextCursor };
}
