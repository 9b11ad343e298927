import { cursorPages, items } from '../paging.js';
import type { Transport } from '../transport.js';
import type {
  CallOptions,
  Memory,
  MemoryCreate,
  MemoryListQuery,
  MemoryPage,
  MemoryPromoteRequest,
  MemoryPromoted,
  MemorySearchRequest,
  MemorySearchResults,
  MemoryUpdate,
  WriteOptions,
} from '../types.js';

/** `/v1/memories`: facts, decisions, preferences… kept as they were said, and promoted into snapshots (design §12). */
export class Memories {
  constructor(private readonly http: Transport) {}

  /** Keeps a memory; `memory_type` defaults to `fact`. */
  async create(body: MemoryCreate, options: WriteOptions = {}): Promise<Memory> {
    return this.http.data<Memory>({
      method: 'POST',
      path: '/v1/memories',
      body,
      ...options,
    });
  }

  /** The same as `create`, through the `POST /v1/memories/remember` alias. */
  async remember(body: MemoryCreate, options: WriteOptions = {}): Promise<Memory> {
    return this.http.data<Memory>({
      method: 'POST',
      path: '/v1/memories/remember',
      body,
      ...options,
    });
  }

  async get(id: string, options: CallOptions = {}): Promise<Memory> {
    return this.http.data<Memory>({
      method: 'GET',
      path: '/v1/memories/{id}',
      params: { id },
      ...options,
    });
  }

  /** Only the fields sent change; `tags` replaces the tags; `null` clears an optional field. */
  async update(id: string, body: MemoryUpdate, options: CallOptions = {}): Promise<Memory> {
    return this.http.data<Memory>({
      method: 'PUT',
      path: '/v1/memories/{id}',
      params: { id },
      body,
      ...options,
    });
  }

  /**
   * The versions of the fact the memory belongs to, oldest first (design §6.1): what it replaced
   * and what replaced it. A version replaced by a newer one has `superseded_by` set.
   */
  async history(id: string, options: CallOptions = {}): Promise<Memory[]> {
    return this.http.data<Memory[]>({
      method: 'GET',
      path: '/v1/memories/{id}/history',
      params: { id },
      ...options,
    });
  }

  /** Deletes the memory; snapshots promoted from it stay. */
  async delete(id: string, options: CallOptions = {}): Promise<{ success: boolean }> {
    return this.http.data<{ success: boolean }>({
      method: 'DELETE',
      path: '/v1/memories/{id}',
      params: { id },
      ...options,
    });
  }

  /**
   * One page, newest first, filtered by `memory_type`, `speaker`, `tag`, `session_id` or
   * `since`/`until` (on `occurred_at`), `current_only` (no superseded memories) and `as_of` (the
   * brain as it stood then); `count` is the number of all matches.
   */
  list(query: MemoryListQuery = {}, options: CallOptions = {}): Promise<MemoryPage> {
    return this.http.request({ method: 'GET', path: '/v1/memories', query, ...options });
  }

  /** Every page, walked by cursor; `limit` sets the page size. */
  pages(query: Omit<MemoryListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return cursorPages((cursor) => this.list({ ...query, cursor }, options));
  }

  /** Every memory of the list, one by one: `for await (const m of client.memories.iterate())`. */
  iterate(query: Omit<MemoryListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return items<Memory>(this.pages(query, options));
  }

  /**
   * Memories matching `query`, best first; a superseded one ranks below its current version, and
   * each carries `superseded_by`. A POST that only reads: it is not cached and empties no cache.
   */
  search(body: MemorySearchRequest, options: WriteOptions = {}): Promise<MemorySearchResults> {
    return this.http.request({
      method: 'POST',
      path: '/v1/memories/search',
      body,
      readOnly: true,
      ...options,
    });
  }

  /**
   * Promotes the memory into snapshots (`source_id` the memory's id), linked unless
   * `auto_link: false`. Promoting it again makes nothing and answers the same snapshots.
   */
  async promote(id: string, body: MemoryPromoteRequest = {}, options: WriteOptions = {}): Promise<MemoryPromoted> {
    return this.http.data<MemoryPromoted>({
      method: 'POST',
      path: '/v1/memories/{id}/promote',
      params: { id },
      body,
      ...options,
    });
  }
}
