/**
 * Design §5.8 lets a client keep search results 30 to 60 seconds. Entries are whole response
 * bodies keyed by the request URL; each read gets its own copy, so a caller that changes a
 * result does not change what the next caller sees. Any write through the same client empties
 * the cache: a program that creates a snapshot and then searches expects to find it.
 */
export interface SearchCacheOptions {
  /** How long a result is reused: 30,000 to 60,000 ms, as design §5.8 allows (default 30,000). */
  ttlMs?: number;
  /** How many distinct searches are kept; the oldest goes first (default 200). */
  maxEntries?: number;
}

export const SEARCH_CACHE_MIN_TTL_MS = 30_000;
export const SEARCH_CACHE_MAX_TTL_MS = 60_000;

interface Entry {
  expiresAt: number;
  body: unknown;
}

export class SearchCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(
    options: SearchCacheOptions,
    private readonly now: () => number,
  ) {
    this.ttlMs = options.ttlMs ?? SEARCH_CACHE_MIN_TTL_MS;
    this.maxEntries = options.maxEntries ?? 200;
    if (!(this.ttlMs >= SEARCH_CACHE_MIN_TTL_MS && this.ttlMs <= SEARCH_CACHE_MAX_TTL_MS)) {
      throw new RangeError(
        `searchCache.ttlMs must be ${SEARCH_CACHE_MIN_TTL_MS} to ${SEARCH_CACHE_MAX_TTL_MS} (design §5.8); searchCache: false turns it off`,
      );
    }
    if (!(Number.isInteger(this.maxEntries) && this.maxEntries > 0)) {
      throw new RangeError('searchCache.maxEntries must be a positive integer');
    }
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return structuredClone(entry.body) as T;
  }

  set(key: string, body: unknown): void {
    this.entries.delete(key);
    this.entries.set(key, { expiresAt: this.now() + this.ttlMs, body: structuredClone(body) });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
