import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiResponse, RequestOptions } from '../helpers/harness.js';
import { HANG_GUARD_MS } from '../helpers/hang-guard.js';

export const JOB_ID = /^job_[0-9A-Z]{26}$/;
export const ASYNC = { prefer: 'respond-async' };

/** What waitForJob reads of a response: in-process (inject) or over real HTTP. */
type Requester = (
  method: string,
  url: string,
  options?: RequestOptions,
) => Promise<Pick<ApiResponse, 'status' | 'body'>>;

/** Polls GET /v1/jobs/:id until `done` holds for the job, failing after the hang guard. */
export async function waitForJob(
  request: Requester,
  key: RequestOptions['key'],
  id: string,
  done: (job: any) => boolean = (job) => job.status === 'succeeded' || job.status === 'failed',
): Promise<any> {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const res = await request('GET', `/v1/jobs/${id}`, { key });
    if (res.status === 429 && Date.now() < deadline) {
      // Polled faster than the plan's read limit allows while a slow job runs: wait as told.
      await sleep(1000 * Number((res.body as { retry_after?: number }).retry_after ?? 1));
      continue;
    }
    if (res.status !== 200) throw new Error(`GET /v1/jobs/${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (done(res.body.data)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`job ${id} never got there: ${JSON.stringify(res.body.data)}`);
    await sleep(25);
  }
}
