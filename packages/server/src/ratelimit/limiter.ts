import type { Decision } from './decision.js';
import type { Limits } from './policy.js';

/** Decides whether one more request of a bucket (a key and group, or an address) is admitted. */
export interface RateLimiter {
  /** In memory the answer is immediate; a shared store answers asynchronously. */
  consume(bucket: string, limits: Limits): Decision | Promise<Decision>;
  /** "ok", or what is wrong (for the readiness endpoint). */
  health(): Record<string, string>;
  close(): Promise<void>;
}
