import type { FastifyBaseLogger } from 'fastify';
import type { Domain } from '../domain/context.js';
import type { WorkKind, WorkTask } from '../store/link-store.js';

/**
 * Does a batch of tasks of one kind (embeddings go to the provider together); throws to have
 * the whole batch tried again later.
 */
export type WorkHandler = (domain: Domain, tasks: WorkTask[]) => Promise<void>;

export interface WorkerOptions {
  /** How often the queue is looked at when nothing nudged the worker. */
  pollMs?: number;
  /** How long a claimed task is this worker's before another may take it (a crash's bound). */
  leaseMs?: number;
  batch?: number;
}

const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 5 * 60_000;

/**
 * The one runner of background work (auto-linking, embeddings): it claims due tasks from the
 * durable queue in the database, runs each kind's handler, and finishes or reschedules them.
 * Off the request path: requests only queue work (by triggers, in their own transaction) and
 * nudge the worker. Each instance runs one; tasks are leased, so instances never run one task
 * at the same time, and a task of a worker that died is taken up when its lease ends.
 */
export class BackgroundWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly batch: number;

  constructor(
    private readonly domain: Domain,
    private readonly handlers: Partial<Record<WorkKind, WorkHandler>>,
    private readonly log: FastifyBaseLogger,
    options: WorkerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.batch = options.batch ?? 16;
  }

  start(): void {
    this.schedule(0);
  }

  /** Work was queued: look soon rather than at the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stops taking work and waits for the tasks in hand; unfinished ones stay queued. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.drain().finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.schedule(0);
        }
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Runs batches while there are due tasks, then waits for the next poll. */
  private async drain(): Promise<void> {
    const kinds = Object.keys(this.handlers) as WorkKind[];
    try {
      for (;;) {
        if (this.stopped) return;
        const tasks = await this.domain.store.work.claim(kinds, this.batch, this.leaseMs);
        for (const kind of kinds) {
          const ofKind = tasks.filter((task) => task.kind === kind);
          if (ofKind.length > 0) await this.runBatch(kind, ofKind);
        }
        if (tasks.length < this.batch) break;
      }
    } catch (err) {
      // The database is away (a restart, a failover): try again at the next poll.
      this.log.warn({ err }, 'background work: could not read the queue');
    }
    this.schedule(this.pollMs);
  }

  private async runBatch(kind: WorkKind, tasks: WorkTask[]): Promise<void> {
    const handler = this.handlers[kind] as WorkHandler;
    try {
      await handler(this.domain, tasks);
      for (const task of tasks) await this.domain.store.work.finish(task);
    } catch (err) {
      // Backoff doubles with each failed attempt: a provider outage delays the work, nothing more.
      const message = err instanceof Error ? err.message : String(err);
      for (const task of tasks) {
        const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** task.attempts);
        await this.domain.store.work.retry(task, message, delay);
      }
      this.log.warn({ err, kind, tasks: tasks.length }, 'background work failed; it will be tried again');
    }
  }
}
