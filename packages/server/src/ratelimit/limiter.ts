import type { Decision } from './decision.js';
import type { Limits } from './policy.js';

/** Decides whether one more request of a bucket (a key and group, or an address) is admitted. */
export interface RateLimiter {
  /** In memory the answer is immediate; a shared store answers asynchronously. */
  consume(bucket: string, limits: Limits): Decision | Promise<Decision>;
  /**
   * The decision without waiting: present only on a limiter that never waits (in memory), and
   * the GET-one fast path exists only where it is (or where there is no limiter at all).
   */
  consumeNow?(bucket: string, limits: Limits): Decision;
  /** "ok", or what is wrong (for the readiness endpoint). */
  health(): Record<string, string>;
  close(): Promise<void>;
}
