import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../errors.js';
import type { SqliteDatabase } from './open-database.js';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** When it was queued (Date.now()): how long it has waited for the lock. */
  since: number;
}

/**
 * How long a write may wait for the lock another connection holds (the large-write worker, the
 * CLI, another process) before it is refused with a 503 and Retry-After (design §4.2).
 */
export const LOCK_WAIT_MS = 30_000;
/** The longest pause between two tries for the lock. */
const MAX_RETRY_MS = 20;

/** SQLite said another connection holds the write lock (busy_timeout is 0 on this connection). */
const isBusy = (err: unknown) => String((err as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY');

const lockTimedOut = () =>
  new AppError('SERVICE_UNAVAILABLE', 'the database is busy with a large write; try again in a moment', {
    retry_after: 1,
  });

/**
 * Group commit: writes that arrive while the event loop is busy are applied together, each in
 * its own savepoint inside one transaction, and acknowledged only after that transaction
 * commits. With `synchronous=FULL` the commit's fsync is the cost of a write, and here it is
 * paid once per batch instead of once per request. A write that fails (a duplicate edge, a
 * vanished snapshot) rolls back its own savepoint and fails alone; a failed commit fails the
 * whole batch, so nothing is acknowledged that was not written.
 *
 * Batches form by themselves: the first write schedules a flush with setImmediate, and every
 * write queued by requests handled in the same turn of the event loop joins it. Under light
 * load a batch is one write and waits for nothing.
 *
 * The lock is never waited for on the event loop: the connection's busy_timeout is 0, and when
 * another connection holds the lock (a large write on the worker thread, the CLI) the batch is
 * tried again a few milliseconds later, while the loop answers other requests. A write that
 * could not get the lock within LOCK_WAIT_MS fails with a 503 (issue 46: it waited 5 s on the
 * loop, /healthz with it, and failed with a 500).
 */
export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  private batches = 0;
  /** Tries in a row that found the lock taken: the next pause grows with them. */
  private busyTries = 0;

  constructor(
    private readonly db: SqliteDatabase,
    /** LOCK_WAIT_MS but in tests of the refusal. */
    private readonly lockWaitMs = LOCK_WAIT_MS,
  ) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject, since: Date.now() });
      this.schedule();
    });
  }

  private schedule(delayMs = 0): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (delayMs === 0) setImmediate(() => this.flush());
    else setTimeout(() => this.flush(), delayMs);
  }

  /** The batch found the lock taken: it waits (the late ones fail) and is tried again first. */
  private waitForLock(batch: Pending[]): void {
    const now = Date.now();
    const waiting = batch.filter((item) => {
      if (now - item.since < this.lockWaitMs) return true;
      item.reject(lockTimedOut());
      return false;
    });
    this.pending = [...waiting, ...this.pending];
    this.busyTries++;
    if (this.pending.length > 0) this.schedule(Math.min(MAX_RETRY_MS, 2 ** this.busyTries));
  }

  /**
   * How many batches have been applied: it moves whenever this store may have changed the
   * database, before any write is acknowledged, so caches of reads can tell (see ReadCache).
   */
  get commits(): number {
    return this.batches;
  }

  /**
   * Runs one large write (a batch of an import) in a transaction of its own, after what is
   * queued: not in a savepoint inside a shared batch, because inside a savepoint every row that
   * reaches the full-text index through a trigger costs FTS5 a flush (measured: 81 µs a
   * snapshot instead of 53). Synchronous; counted as a batch, like any commit of this store.
   */
  async runAlone<T>(work: () => T): Promise<T> {
    const since = Date.now();
    for (let tries = 1; ; tries++) {
      this.flush();
      try {
        this.batches++;
        return this.db.transaction(work).immediate();
      } catch (err) {
        if (!isBusy(err)) throw err;
        if (Date.now() - since >= this.lockWaitMs) throw lockTimedOut();
        await sleep(Math.min(MAX_RETRY_MS, 2 ** tries));
      }
    }
  }

  /** Applies everything queued now; also called before the database closes. */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    // Counted whatever the outcome: a failed commit may still have touched the file.
    this.batches++;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.db
        .transaction(() => {
          for (const item of batch) {
            try {
              // A transaction function called inside a transaction runs in a savepoint.
              outcomes.push({ ok: true, value: this.db.transaction(item.work)() });
            } catch (err) {
              outcomes.push({ ok: false, value: err });
            }
          }
        })
        .immediate();
    } catch (err) {
      // BEGIN IMMEDIATE found the lock taken: nothing of the batch ran.
      if (isBusy(err) && outcomes.length === 0) return this.waitForLock(batch);
      for (const item of batch) item.reject(err);
      return;
    }
    this.busyTries = 0;
    batch.forEach((item, i) => {
      const outcome = outcomes[i] as { ok: boolean; value: unknown };
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.value);
    });
  }
}
