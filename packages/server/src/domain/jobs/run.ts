import { isoTime } from '../../clock.js';
import { AppError } from '../../errors.js';
import type { JobProgress, JobRecord } from '../../store/job-store.js';
import type { Domain } from '../context.js';
import type { JobInput } from './jobs.js';
import { fencedDomain } from './fence.js';
import { jobFunction } from './registry.js';

export interface RunSettings {
  /** Who holds the lease: one runner of one process. */
  owner: string;
  leaseMs: number;
  /** A job claimed more often than this (its process died each time) fails instead of running. */
  maxAttempts: number;
  /** The least time between two writes of a job's progress. */
  progressEveryMs: number;
  /** Whatever a job function threw, as the documented error body (the HTTP layer's). */
  errorBody: (err: unknown, requestId: string) => unknown;
  /** Told about failures nobody else will see (an unexpected error, a lease lost). */
  onError: (err: unknown, job: JobRecord, what: string) => void;
}

/** Why a job's signal was aborted. */
export const SHUTDOWN = 'shutdown';
const LEASE_LOST = 'lease lost';

/**
 * Runs one claimed job to its end: its function under a renewed lease, progress written at
 * most every `progressEveryMs`, then the outcome — the function's response, or its error as the
 * error body. `stop` (shutdown) aborts the function; a job stopped that way goes back to the
 * queue, its attempt not counted. Every write is conditional on still holding the lease.
 */
export async function runClaimedJob(domain: Domain, job: JobRecord, settings: RunSettings, stop: AbortSignal) {
  const { store, clock } = domain;
  const now = () => isoTime(clock.now());
  const input = JSON.parse(job.input) as JobInput;
  const run = jobFunction(job.kind);

  if (job.attempts > settings.maxAttempts || !run) {
    const message = run
      ? `the job was interrupted ${job.attempts - 1} time${job.attempts === 2 ? '' : 's'} (the process running it stopped) and was not completed`
      : `no job kind "${job.kind}" is known`;
    const error = settings.errorBody(
      new AppError('INTERNAL', message, { attempts: job.attempts - 1 }),
      input.request_id,
    );
    await store.jobs.finish(
      job.id,
      settings.owner,
      { status: 'failed', error: JSON.stringify(error) },
      job.progress,
      now(),
    );
    return;
  }

  const controller = new AbortController();
  const abort = (reason: string) => controller.abort(reason);
  const onStop = () => abort(SHUTDOWN);
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });

  const renewal = setInterval(
    () => {
      store.jobs.renew(job.id, settings.owner, settings.leaseMs).then(
        (held) => held || abort(LEASE_LOST),
        () => undefined, // the database is away for a moment: the next renewal tries again
      );
    },
    Math.max(50, Math.floor(settings.leaseMs / 3)),
  );
  renewal.unref();
  const progress = new ThrottledProgress(job.progress, settings.progressEveryMs, (p) =>
    store.jobs.setProgress(job.id, settings.owner, p, now()).then(
      (held) => held || abort(LEASE_LOST),
      (err: unknown) => settings.onError(err, job, 'could not write progress'),
    ),
  );

  // Before each write of the work's output: still ours, for a whole lease from now (fence.ts).
  const holdLease = async () => {
    if (controller.signal.aborted) throw new Error(`the job was stopped: ${String(controller.signal.reason)}`);
    if (await store.jobs.renew(job.id, settings.owner, settings.leaseMs)) return;
    abort(LEASE_LOST);
    throw new Error('the lease was lost: another runner has the job');
  };

  let outcome: { ok: true; status: number; body: unknown } | { ok: false; err: unknown };
  try {
    const response = await run({
      domain: fencedDomain(domain, holdLease),
      input: input.body,
      principal: input.principal,
      progress: (p) => progress.report(p),
      signal: controller.signal,
      job: { id: job.id, owner: settings.owner, written: job.written === null ? undefined : JSON.parse(job.written) },
    });
    outcome = { ok: true, ...response };
  } catch (err) {
    outcome = { ok: false, err };
  } finally {
    clearInterval(renewal);
    stop.removeEventListener('abort', onStop);
    await progress.close();
  }

  if (controller.signal.reason === LEASE_LOST) {
    settings.onError(new Error('the lease was lost'), job, 'another runner took the job over; its outcome is dropped');
    return;
  }
  if (!outcome.ok && controller.signal.reason === SHUTDOWN) {
    await store.jobs.release(job.id, settings.owner, now());
    return;
  }
  const last = progress.latest;
  const done: JobProgress = { phase: 'done', done: Math.max(last.done, last.total), total: last.total };
  if (outcome.ok && outcome.status < 400) {
    const result = JSON.stringify({ status: outcome.status, body: outcome.body });
    await store.jobs.finish(job.id, settings.owner, { status: 'succeeded', result }, done, now());
    return;
  }
  const error = outcome.ok ? outcome.body : settings.errorBody(outcome.err, input.request_id);
  if (!outcome.ok) settings.onError(outcome.err, job, 'the job failed');
  await store.jobs.finish(job.id, settings.owner, { status: 'failed', error: JSON.stringify(error) }, last, now());
}

/** Progress counts are whole and not negative, whatever a job reports. */
const count = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/**
 * Progress reported as often as a job likes, written at most once per interval: the latest
 * value wins, writes never overlap, and `close` waits for the last one.
 */
class ThrottledProgress {
  latest: JobProgress;
  private written: JobProgress;
  private lastWriteAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    initial: JobProgress,
    private readonly everyMs: number,
    private readonly write: (progress: JobProgress) => Promise<unknown>,
  ) {
    this.latest = this.written = initial;
  }

  report(progress: JobProgress): void {
    if (this.closed) return;
    this.latest = { phase: String(progress.phase), done: count(progress.done), total: count(progress.total) };
    if (this.timer) return;
    const wait = this.lastWriteAt + this.everyMs - Date.now();
    this.timer = setTimeout(() => this.flush(), Math.max(0, wait));
    this.timer.unref();
  }

  private flush(): void {
    this.timer = undefined;
    if (this.closed || this.latest === this.written) return;
    const value = (this.written = this.latest);
    this.lastWriteAt = Date.now();
    this.writing = this.writing.then(() => this.write(value));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.writing;
  }
}
