import type { Store } from '../store/store.js';

/** A queue whose length is worth watching, read when Prometheus scrapes. */
export interface QueueDepth {
  /** The `queue` label. */
  queue: string;
  read(store: Store): Promise<number>;
}

/**
 * The queues `snapgraph_queue_depth` reports. Background work is one table with a kind per
 * queue; jobs (design §14) count while queued or running.
 */
export const QUEUE_DEPTHS: QueueDepth[] = [
  { queue: 'auto_link', read: (store) => store.work.pending('auto_link') },
  { queue: 'embed', read: (store) => store.work.pending('embed') },
  { queue: 'jobs', read: (store) => store.jobs.unfinished() },
];
