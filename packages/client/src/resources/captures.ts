import { cursorPages, items } from '../paging.js';
import type { Transport } from '../transport.js';
import type { CallOptions, Capture, CaptureListQuery, CapturePage, Snapshot, WriteOptions } from '../types.js';

/** `/v1/captures`: what a crystallize run with `review: true` proposed, waiting for a decision. */
export class Captures {
  constructor(private readonly http: Transport) {}

  /** One page of pending captures, newest first; `count` counts them all. */
  list(query: CaptureListQuery = {}, options: CallOptions = {}): Promise<CapturePage> {
    return this.http.request({ method: 'GET', path: '/v1/captures', query, ...options });
  }

  /** Every page, walked by cursor. */
  pages(query: Omit<CaptureListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return cursorPages((cursor) => this.list({ ...query, cursor }, options));
  }

  /** Every pending capture, one by one. */
  iterate(query: Omit<CaptureListQuery, 'cursor' | 'offset'> = {}, options: CallOptions = {}) {
    return items<Capture>(this.pages(query, options));
  }

  /** Makes the capture a snapshot (linked automatically); it leaves the pending list. */
  async accept(id: string, options: WriteOptions = {}): Promise<Snapshot> {
    return this.http.data<Snapshot>({
      method: 'POST',
      path: '/v1/captures/{id}/accept',
      params: { id },
      ...options,
    });
  }

  /** Drops the capture; nothing is stored. */
  async reject(id: string, options: WriteOptions = {}): Promise<{ success: boolean }> {
    return this.http.data<{ success: boolean }>({
      method: 'POST',
      path: '/v1/captures/{id}/reject',
      params: { id },
      ...options,
    });
  }
}
