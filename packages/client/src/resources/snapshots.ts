import { cursorPages, items, offsetPages } from '../paging.js';
import type { Transport } from '../transport.js';
import type {
  CallOptions,
  SearchPage,
  SearchQuery,
  SearchResult,
  Snapshot,
  SnapshotCreate,
  SnapshotListQuery,
  SnapshotPage,
  SnapshotUpdate,
  SuggestionList,
  SuggestionQuery,
  WriteOptions,
} from '../types.js';

/** The deepest offset search takes (the service reaches its first 10,000 results). */
export const SEARCH_OFFSET_MAX = 9_900;

export interface SearchOptions extends CallOptions {
  /** Ask the service even when a cached answer is still fresh (the answer is cached again). */
  fresh?: boolean;
}

/** `/v1/snapshots`: create, read, update, delete, list, search and link suggestions. */
export class Snapshots {
  constructor(private readonly http: Transport) {}

  async create(body: SnapshotCreate, options: WriteOptions = {}): Promise<Snapshot> {
    return this.http.data<Snapshot>({
      method: 'POST',
      path: '/v1/snapshots',
      body,
      ...options,
    });
  }

  async get(id: string, options: CallOptions = {}): Promise<Snapshot> {
    return this.http.data<Snapshot>({
      method: 'GET',
      path: '/v1/snapshots/{id}',
      params: { id },
      ...options,
    });
  }

  /** Only the fields sent change; `tags` replaces the tags; `null` clears an optional field. */
  async update(id: string, body: SnapshotUpdate, options: CallOptions = {}): Promise<Snapshot> {
    return this.http.data<Snapshot>({
      method: 'PUT',
      path: '/v1/snapshots/{id}',
      params: { id },
      body,
      ...options,
    });
  }

  /** Deletes the snapshot and every edge attached to it; irreversible. */
  async delete(id: string, options: CallOptions = {}): Promise<{ success: boolean }> {
    return this.http.data<{ success: boolean }>({
      method: 'DELETE',
      path: '/v1/snapshots/{id}',
      params: { id },
      ...options,
    });
  }

  /** One page, newest first; `count` is the number of all matches. */
  list(query: SnapshotListQuery = {}, options: CallOptions = {}): Promise<SnapshotPage> {
    return this.http.request({ method: 'GET', path: '/v1/snapshots', query, ...options });
  }

  /** Every page, walked by cursor; `limit` sets the page size. */
  pages(query: Omit<SnapshotListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return cursorPages((cursor) => this.list({ ...query, cursor }, options));
  }

  /** Every snapshot of the list, one by one: `for await (const s of client.snapshots.iterate())`. */
  iterate(query: Omit<SnapshotListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return items<Snapshot>(this.pages(query, options));
  }

  /** Ranked search (design §8); answers are cached as design §5.8 allows unless the cache is off. */
  search(query: SearchQuery, options: SearchOptions = {}): Promise<SearchPage> {
    const { fresh, ...call } = options;
    return this.http.request({
      method: 'GET',
      path: '/v1/snapshots/search',
      query,
      cacheable: true,
      fresh: fresh ?? false,
      ...call,
    });
  }

  /**
   * Every result of a search, page by page (by offset: search has no cursor), up to its first
   * 10,000 results: the deepest the service's search reaches.
   */
  searchPages(query: Omit<SearchQuery, 'offset'>, options: SearchOptions = {}) {
    return offsetPages((offset) => this.search({ ...query, offset }, options), 0, SEARCH_OFFSET_MAX);
  }

  /** The results of a search one by one, best first. */
  searchAll(query: Omit<SearchQuery, 'offset'>, options: SearchOptions = {}) {
    return items<SearchResult>(this.searchPages(query, options));
  }

  /** Edges the service would make for this snapshot, best first; accept one with `edges.create`. */
  suggestions(id: string, query: SuggestionQuery = {}, options: CallOptions = {}): Promise<SuggestionList> {
    return this.http.request({
      method: 'GET',
      path: '/v1/snapshots/{id}/suggestions',
      params: { id },
      query,
      ...options,
    });
  }
}
