/** API keys kept by either store's key cache. */
export const KEY_CACHE_SIZE = 10_000;

/**
 * Results of reads, kept until the database changes.
 *
 * On SQLite a change is either a commit of the store's own (GroupCommit counts them) or a commit
 * by another connection — the CLI revoking a key, another process on the same file — which
 * `PRAGMA data_version` reports. The store passes both to `sync` before every lookup; when
 * either moved, everything is dropped. Coarse, but a stale answer is impossible, and reads
 * between writes — the common case for API keys and for graph pages — cost one pragma instead
 * of the query. On PostgreSQL the key cache calls `clear` when told of a change (KeyCache).
 *
 * Memory is bounded by `maxWeight` (entry count, or whatever `weigh` measures): reaching it
 * starts the cache over rather than tracking recency, which is cheaper and enough here.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, V>();
  private weight = 0;
  private dataVersion = -1;
  private commits = -1;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  /** Drops every entry if the database changed since they were read. */
  sync(dataVersion: number, commits: number): void {
    if (dataVersion === this.dataVersion && commits === this.commits) return;
    this.clear();
    this.dataVersion = dataVersion;
    this.commits = commits;
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    if (this.weight + weight > this.maxWeight) this.clear();
    this.entries.set(key, value);
    this.weight += weight;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }
}
