import { items, offsetPages } from '../paging.js';
import type { Transport } from '../transport.js';
import type {
  Brain,
  BrainCreate,
  BrainListQuery,
  BrainPage,
  BrainUpdate,
  CallOptions,
  WriteOptions,
} from '../types.js';

/** `/v1/brains`: the containers of an account's snapshots and edges. */
export class Brains {
  constructor(private readonly http: Transport) {}

  async create(body: BrainCreate, options: WriteOptions = {}): Promise<Brain> {
    return this.http.data<Brain>({ method: 'POST', path: '/v1/brains', body, ...options });
  }

  /** One brain with its snapshot and edge counts. */
  async get(id: string, options: CallOptions = {}): Promise<Brain> {
    return this.http.data<Brain>({
      method: 'GET',
      path: '/v1/brains/{id}',
      params: { id },
      ...options,
    });
  }

  /** Renames the brain or turns automatic linking on or off. */
  async update(id: string, body: BrainUpdate, options: CallOptions = {}): Promise<Brain> {
    return this.http.data<Brain>({
      method: 'PUT',
      path: '/v1/brains/{id}',
      params: { id },
      body,
      ...options,
    });
  }

  list(query: BrainListQuery = {}, options: CallOptions = {}): Promise<BrainPage> {
    return this.http.request({ method: 'GET', path: '/v1/brains', query, ...options });
  }

  /** Every page (by offset: the brain list has no cursor). */
  pages(query: Omit<BrainListQuery, 'offset'> = {}, options: CallOptions = {}) {
    return offsetPages((offset) => this.list({ ...query, offset }, options));
  }

  iterate(query: Omit<BrainListQuery, 'offset'> = {}, options: CallOptions = {}) {
    return items<Brain>(this.pages(query, options));
  }
}
