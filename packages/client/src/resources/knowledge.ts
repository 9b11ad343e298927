import { cursorPages, items } from '../paging.js';
import type { Transport } from '../transport.js';
import type {
  CallOptions,
  JobAccepted,
  JobCapableOptions,
  KnowledgeEntry,
  KnowledgeEntryUpdate,
  KnowledgeIngestRequest,
  KnowledgeIngestResult,
  KnowledgeSearchRequest,
  KnowledgeSearchResults,
  KnowledgeSource,
  KnowledgeSourceListQuery,
  KnowledgeSourcePage,
  KnowledgeSourceWithEntries,
  WriteOptions,
} from '../types.js';

/** `/v1/specific-knowledge`: sources (books, courses, documents…), their entries, and search (design §13.2). */
export class Knowledge {
  constructor(private readonly http: Transport) {}

  /**
   * Ingests a source into knowledge entries, and snapshots made from them unless
   * `create_snapshots: false`. With `{ async: true }` it runs as a job: `{ job_id, status }` now,
   * this call's result from `waitForJob(job_id)`.
   */
  ingest(body: KnowledgeIngestRequest, options: JobCapableOptions & { async: true }): Promise<JobAccepted>;
  ingest(body: KnowledgeIngestRequest, options?: WriteOptions & { async?: false }): Promise<KnowledgeIngestResult>;
  async ingest(
    body: KnowledgeIngestRequest,
    options: JobCapableOptions = {},
  ): Promise<KnowledgeIngestResult | JobAccepted> {
    const res = await this.http.request<KnowledgeIngestResult | { data: JobAccepted }>({
      method: 'POST',
      path: '/v1/specific-knowledge/ingest',
      body,
      ...options,
    });
    return options.async ? (res as { data: JobAccepted }).data : (res as KnowledgeIngestResult);
  }

  /** Entries matching `query`, best first. A POST that only reads: it is not cached and empties no cache. */
  search(body: KnowledgeSearchRequest, options: WriteOptions = {}): Promise<KnowledgeSearchResults> {
    return this.http.request({
      method: 'POST',
      path: '/v1/specific-knowledge/search',
      body,
      readOnly: true,
      ...options,
    });
  }

  /** One page of sources, newest first. */
  listSources(query: KnowledgeSourceListQuery = {}, options: CallOptions = {}): Promise<KnowledgeSourcePage> {
    return this.http.request({ method: 'GET', path: '/v1/specific-knowledge/sources', query, ...options });
  }

  /** Every page of sources, walked by cursor. */
  sourcePages(query: Omit<KnowledgeSourceListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return cursorPages((cursor) => this.listSources({ ...query, cursor }, options));
  }

  /** Every source, one by one. */
  iterateSources(query: Omit<KnowledgeSourceListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return items<KnowledgeSource>(this.sourcePages(query, options));
  }

  /** A source with its entries, in the order they were extracted. */
  async getSource(id: string, options: CallOptions = {}): Promise<KnowledgeSourceWithEntries> {
    return this.http.data<KnowledgeSourceWithEntries>({
      method: 'GET',
      path: '/v1/specific-knowledge/sources/{id}',
      params: { id },
      ...options,
    });
  }

  /** Deletes the source and its entries; snapshots made from it stay. */
  async deleteSource(id: string, options: CallOptions = {}): Promise<{ success: boolean }> {
    return this.http.data<{ success: boolean }>({
      method: 'DELETE',
      path: '/v1/specific-knowledge/sources/{id}',
      params: { id },
      ...options,
    });
  }

  async getEntry(id: string, options: CallOptions = {}): Promise<KnowledgeEntry> {
    return this.http.data<KnowledgeEntry>({
      method: 'GET',
      path: '/v1/specific-knowledge/entries/{id}',
      params: { id },
      ...options,
    });
  }

  /** Changes `mastery` (0 to 1), `title`, `content` or `domain`. */
  async updateEntry(id: string, body: KnowledgeEntryUpdate, options: CallOptions = {}): Promise<KnowledgeEntry> {
    return this.http.data<KnowledgeEntry>({
      method: 'PUT',
      path: '/v1/specific-knowledge/entries/{id}',
      params: { id },
      body,
      ...options,
    });
  }
}
