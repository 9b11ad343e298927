import { cursorPages, items } from '../paging.js';
import type { Transport } from '../transport.js';
import type { CallOptions, Edge, EdgeCreate, EdgeListQuery, EdgePage, EdgeUpdate, WriteOptions } from '../types.js';

/** `/v1/edges`: typed, weighted, directed links between two snapshots of one brain. */
export class Edges {
  constructor(private readonly http: Transport) {}

  async create(body: EdgeCreate, options: WriteOptions = {}): Promise<Edge> {
    return this.http.data<Edge>({ method: 'POST', path: '/v1/edges', body, ...options });
  }

  async get(id: string, options: CallOptions = {}): Promise<Edge> {
    return this.http.data<Edge>({
      method: 'GET',
      path: '/v1/edges/{id}',
      params: { id },
      ...options,
    });
  }

  /** Changes `edge_type`, `strength` or `label`; an automatic edge becomes the user's (`origin: manual`). */
  async update(id: string, body: EdgeUpdate, options: CallOptions = {}): Promise<Edge> {
    return this.http.data<Edge>({
      method: 'PUT',
      path: '/v1/edges/{id}',
      params: { id },
      body,
      ...options,
    });
  }

  /** Removes the edge; both snapshots stay, and the service never re-creates it by itself. */
  delete(id: string, options: CallOptions = {}): Promise<{ message: string }> {
    return this.http.request({ method: 'DELETE', path: '/v1/edges/{id}', params: { id }, ...options });
  }

  /** One page of a snapshot's edges (`snapshot_id`) or a brain's (`brain_id`); `total` counts all. */
  list(query: EdgeListQuery, options: CallOptions = {}): Promise<EdgePage> {
    return this.http.request({ method: 'GET', path: '/v1/edges', query, ...options });
  }

  /** Every page, walked by cursor. */
  pages(query: Omit<EdgeListQuery, 'cursor' | 'offset'>, options: CallOptions = {}) {
    return cursorPages((cursor) => this.list({ ...query, cursor }, options));
  }

  /** Every edge of the list, one by one. */
  iterate(query: Omit<EdgeListQuery, 'cursor' | 'offset'>, options: CallOptions = {}) {
    return items<Edge>(this.pages(query, options));
  }
}
