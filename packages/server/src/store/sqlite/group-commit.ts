import type { SqliteDatabase } from './open-database.js';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

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
 */
export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;
  private batches = 0;

  constructor(private readonly db: SqliteDatabase) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
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
  runAlone<T>(work: () => T): T {
    this.flush();
    this.batches++;
    return this.db.transaction(work).immediate();
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
      for (const item of batch) item.reject(err);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i] as { ok: boolean; value: unknown };
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.value);
    });
  }
}
