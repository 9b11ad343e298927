import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { isoTime } from '../clock.js';
import type { Domain } from '../domain/context.js';
import { registeredJobKinds, runClaimedJob, type RunSettings } from '../domain/jobs/index.js';

export interface JobRunnerOptions {
  /** How long a claimed job is this runner's without renewal (JOB_LEASE_MS): a crash's bound. */
  leaseMs: number;
  /** Claims of one job before it fails instead of running again (JOB_MAX_ATTEMPTS). */
  maxAttempts: number;
  errorBody: RunSettings['errorBody'];
  /** Jobs run at once by this process. */
  concurrency?: number;
  /** How often the queue is looked at when nothing nudged the runner. */
  pollMs?: number;
  progressEveryMs?: number;
}

/**
 * Runs queued jobs (design §14), beside the background worker and started with it
 * (BACKGROUND_WORK): claims jobs from the database with a lease, a few at a time, and runs each
 * to its end (domain/jobs/run.ts). Instances share the queue; the lease makes each job one
 * runner's at a time, and a job whose runner died is claimed again when its lease runs out.
 * `stop` (preClose) aborts the jobs in hand and waits for them: they go back to the queue.
 */
export class JobRunner {
  private readonly owner = `run_${randomBytes(8).toString('hex')}`;
  private readonly active = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly settings: RunSettings;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | undefined;
  private claiming = false;
  private again = false;

  constructor(
    private readonly domain: Domain,
    private readonly log: FastifyBaseLogger,
    options: JobRunnerOptions,
  ) {
    this.concurrency = options.concurrency ?? 2;
    this.pollMs = options.pollMs ?? 1000;
    this.settings = {
      owner: this.owner,
      leaseMs: options.leaseMs,
      maxAttempts: options.maxAttempts,
      progressEveryMs: options.progressEveryMs ?? 250,
      errorBody: options.errorBody,
      onError: (err, job, what) => log.warn({ err, job_id: job.id, kind: job.kind }, `job: ${what}`),
    };
  }

  start(): void {
    this.schedule(0);
  }

  /** A job was queued, or one finished: look now rather than at the next poll. */
  nudge(): void {
    if (this.stopping.signal.aborted) return;
    if (this.claiming) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
  }

  private schedule(delayMs: number): void {
    if (this.stopping.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.claim(), delayMs);
    this.timer.unref();
  }

  private async claim(): Promise<void> {
    this.claiming = true;
    try {
      const room = this.concurrency - this.active.size;
      const kinds = registeredJobKinds();
      if (room > 0 && kinds.length > 0 && !this.stopping.signal.aborted) {
        const now = isoTime(this.domain.clock.now());
        const jobs = await this.domain.store.jobs.claim(this.owner, kinds, room, this.settings.leaseMs, now);
        for (const job of jobs) this.track(runClaimedJob(this.domain, job, this.settings, this.stopping.signal));
      }
    } catch (err) {
      // The database is away (a restart, a failover): try again at the next poll.
      this.log.warn({ err }, 'jobs: could not read the queue');
    } finally {
      this.claiming = false;
    }
    if (this.again) {
      this.again = false;
      this.schedule(0);
    } else this.schedule(this.pollMs);
  }

  private track(run: Promise<void>): void {
    const tracked: Promise<void> = run
      .catch((err: unknown) => this.log.error({ err }, 'jobs: could not record a job outcome'))
      .finally(() => {
        this.active.delete(tracked);
        this.nudge();
      });
    this.active.add(tracked);
  }
}
