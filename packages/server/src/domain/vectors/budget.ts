/** Something held under the budget, with what it costs now. */
export interface Costed {
  bytes(): number;
}

/**
 * The vectors (and indexes) of many brains under one memory budget (VECTOR_CACHE_MB): a Map in
 * the order entries were last used, so the least recently searched is dropped first. An entry
 * larger than the whole budget is never held: its search reads it, answers and lets it go.
 */
export class VectorBudget<T extends Costed> {
  private readonly held = new Map<string, T>();
  /** Entries dropped to stay under the budget since the process started. */
  evictions = 0;

  constructor(readonly budgetBytes: number) {}

  get(key: string): T | undefined {
    const entry = this.held.get(key);
    if (entry !== undefined) {
      // Most recently used last.
      this.held.delete(key);
      this.held.set(key, entry);
    }
    return entry;
  }

  /** The entry under `key`, without counting as a use (a write is not a search). */
  peek(key: string): T | undefined {
    return this.held.get(key);
  }

  /** Whether an entry still is the one held under its key (a build that finished late checks). */
  holds(key: string, entry: T): boolean {
    return this.held.get(key) === entry;
  }

  /** Holds `entry` (when it fits at all) and drops the least recently used until all fit again. */
  put(key: string, entry: T): void {
    this.held.delete(key);
    if (entry.bytes() > this.budgetBytes) return;
    this.held.set(key, entry);
    this.fit(key);
  }

  /** Drops the least recently used entries, other than `keep`, until everything fits the budget. */
  fit(keep?: string): void {
    let total = this.bytes();
    for (const [key, entry] of this.held) {
      if (total <= this.budgetBytes) return;
      if (key === keep) continue;
      total -= entry.bytes();
      this.held.delete(key);
      this.evictions++;
    }
  }

  delete(key: string): void {
    this.held.delete(key);
  }

  /** What every held entry costs now. */
  bytes(): number {
    let total = 0;
    for (const entry of this.held.values()) total += entry.bytes();
    return total;
  }

  keys(): IterableIterator<string> {
    return this.held.keys();
  }
}
