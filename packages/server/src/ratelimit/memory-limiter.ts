import type { Clock } from '../clock.js';
import { MINUTE_MS, type Decision } from './decision.js';
import type { RateLimiter } from './limiter.js';
import type { Limits } from './policy.js';
import { RollingWindow } from './rolling-window.js';

const SWEEP_EVERY = 1024;

/**
 * One process's limiter: a rolling window per bucket, in memory. Windows with no admission in
 * the last minute hold no information, so they are dropped as the map is swept (every 1,024
 * calls): memory follows the buckets active in the last minute, not every key ever seen.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, RollingWindow>();
  private calls = 0;

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.windows.size;
  }

  consumeNow(bucket: string, limits: Limits, nowMs = this.clock.now()): Decision {
    if (++this.calls % SWEEP_EVERY === 0) this.sweep(nowMs);
    let window = this.windows.get(bucket);
    if (!window) {
      window = new RollingWindow();
      this.windows.set(bucket, window);
    }
    return window.consume(nowMs, limits);
  }

  consume(bucket: string, limits: Limits): Decision {
    return this.consumeNow(bucket, limits);
  }

  sweep(nowMs = this.clock.now()): void {
    for (const [bucket, window] of this.windows) {
      if (window.newest <= nowMs - MINUTE_MS) this.windows.delete(bucket);
    }
  }

  health(): Record<string, string> {
    return {};
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
