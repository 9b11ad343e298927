import type { Transport } from '../transport.js';
import type {
  CallOptions,
  CrystallizeRequest,
  CrystallizeResult,
  CrystallizeRun,
  JobAccepted,
  JobCapableOptions,
  WriteOptions,
} from '../types.js';

/** `/v1/crystallize`: free text in, snapshots (or captures to review) out (design §11). */
export class Crystallize {
  constructor(private readonly http: Transport) {}

  /**
   * Extracts, merges and stores the insights of `text`. With `{ async: true }` the work runs as a
   * job: the call answers `{ job_id, status }` at once, and `waitForJob(job_id)` gives this
   * call's result. With `review: true` the results wait in `captures` instead of becoming snapshots.
   */
  text(body: CrystallizeRequest, options: JobCapableOptions & { async: true }): Promise<JobAccepted>;
  text(body: CrystallizeRequest, options?: WriteOptions & { async?: false }): Promise<CrystallizeResult>;
  async text(body: CrystallizeRequest, options: JobCapableOptions = {}): Promise<CrystallizeResult | JobAccepted> {
    const res = await this.http.request<CrystallizeResult | { data: JobAccepted }>({
      method: 'POST',
      path: '/v1/crystallize',
      body,
      ...options,
    });
    return options.async ? (res as { data: JobAccepted }).data : (res as CrystallizeResult);
  }

  /** A run: its status, the snapshots and captures it made, and what it cost. */
  async getRun(runId: string, options: CallOptions = {}): Promise<CrystallizeRun> {
    return this.http.data<CrystallizeRun>({
      method: 'GET',
      path: '/v1/crystallize/{run_id}',
      params: { run_id: runId },
      ...options,
    });
  }
}
