export { SnapgraphClient } from './client.js';
export { SnapgraphError } from './errors.js';
export type { ClientOptions } from './transport.js';
export type { RetryOptions } from './backoff.js';
export type { SearchCacheOptions } from './search-cache.js';
export type { Sleep } from './sleep.js';
export type { SearchOptions } from './resources/snapshots.js';
export type { SucceededJob, WaitOptions } from './resources/jobs.js';
export type * from './types.js';
