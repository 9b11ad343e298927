import { errorFromJob } from '../errors.js';
import { cursorPages, items } from '../paging.js';
import type { Transport } from '../transport.js';
import type { CallOptions, Job, JobListQuery, JobPage } from '../types.js';

export interface WaitOptions {
  /** Stops waiting (and the request in flight); the wait rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time between two polls of `GET /v1/jobs/{id}` (default 1,000 ms). */
  pollMs?: number;
  /** Called with the job after each poll that found it still queued or running (its `progress`). */
  onProgress?: (job: Job) => void | Promise<void>;
}

/** A job that succeeded, its `result` typed as the synchronous call's answer. */
export type SucceededJob<R> = Omit<Job, 'status' | 'result'> & { status: 'succeeded'; result: R };

const DEFAULT_POLL_MS = 1_000;

/** `/v1/jobs`: work that runs after its request answered 202 (design §14). */
export class Jobs {
  constructor(private readonly http: Transport) {}

  /** One page of your jobs, newest first, optionally of one `status` or `kind`; `count` counts every match. */
  list(query: JobListQuery = {}, options: CallOptions = {}): Promise<JobPage> {
    return this.http.request({ method: 'GET', path: '/v1/jobs', query, ...options });
  }

  /** Every page, walked by cursor. */
  pages(query: Omit<JobListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return cursorPages((cursor) => this.list({ ...query, cursor }, options));
  }

  /** Every job, one by one. */
  iterate(query: Omit<JobListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return items<Job>(this.pages(query, options));
  }

  /** The job as it is now: `queued`, `running`, `succeeded` (with `result`) or `failed` (with `error`). */
  async get(id: string, options: CallOptions = {}): Promise<Job> {
    return this.http.data<Job>({
      method: 'GET',
      path: '/v1/jobs/{id}',
      params: { id },
      ...options,
    });
  }

  /**
   * Polls the job until it finishes. Resolves with the succeeded job (its `result` is the body
   * the synchronous call would have answered); a failed job rejects with the `SnapgraphError`
   * that call would have thrown (`PROVIDER_UNAVAILABLE`, `UNPROCESSABLE`, …).
   */
  async wait<R = unknown>(id: string, options: WaitOptions = {}): Promise<SucceededJob<R>> {
    const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    if (!(Number.isFinite(pollMs) && pollMs >= 0)) throw new RangeError('pollMs must be a number, 0 or more');
    const call = options.signal ? { signal: options.signal } : {};
    for (;;) {
      const job = await this.get(id, call);
      if (job.status === 'failed') throw errorFromJob(job.error);
      if (job.status === 'succeeded') {
        // The job wrote after this client's last write emptied the search cache.
        this.http.cache?.clear();
        return job as SucceededJob<R>;
      }
      await options.onProgress?.(job);
      await this.http.sleep(pollMs, options.signal);
    }
  }
}
