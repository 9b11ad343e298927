import type { Limits } from './policy.js';
import { MINUTE_MS, SECOND_MS, type Decision } from './decision.js';

/**
 * An exact rolling-window limiter for one key and group: a request is admitted only if the
 * admitted requests of the last 60 s, and of the last 1 s, stay within their limits — in any
 * 60 s there are never more than `perMinute`, in any 1 s never more than `perSecond`. Unlike a
 * token bucket or two fixed windows, there is no boundary to exploit.
 *
 * It keeps a run-length log of admission times (one entry per distinct millisecond), so memory
 * is bounded by min(perMinute, 60,000) entries however high an enterprise limit is, and every
 * operation is O(1) amortized. Refused requests are not recorded: they consume nothing.
 */
export class RollingWindow {
  private times: number[] = [];
  private counts: number[] = [];
  private head = 0; // first entry still inside the minute window
  private secondHead = 0; // first entry inside the second window
  private minuteCount = 0;
  private secondCount = 0;
  private latest = 0; // the clock never runs backwards here, even if the system clock does

  /** The time of the newest admission, or 0: windows idle for a minute can be dropped. */
  get newest(): number {
    return this.times.length > this.head ? (this.times[this.times.length - 1] as number) : 0;
  }

  consume(nowMs: number, limits: Limits): Decision {
    const now = Math.max(nowMs, this.latest);
    this.latest = now;
    this.expire(now);
    const allowed = this.minuteCount < limits.perMinute && this.secondCount < limits.perSecond;
    if (allowed) this.record(now);
    return {
      allowed,
      limit: limits.perMinute,
      burst: limits.perSecond,
      remaining: allowed ? Math.max(0, limits.perMinute - this.minuteCount) : 0,
      resetAtMs: this.minuteCount === 0 ? now : this.newest + MINUTE_MS,
      retryAfterMs: allowed ? 0 : this.freeAt(limits) - now,
      nowMs: now,
      // Always present, so that every decision has one shape on the hot path.
      refusedBy: allowed ? undefined : this.minuteCount >= limits.perMinute ? 'minute' : 'second',
    };
  }

  private expire(now: number): void {
    const times = this.times;
    const counts = this.counts;
    while (this.secondHead < times.length && (times[this.secondHead] as number) <= now - SECOND_MS) {
      this.secondCount -= counts[this.secondHead] as number;
      this.secondHead++;
    }
    while (this.head < times.length && (times[this.head] as number) <= now - MINUTE_MS) {
      this.minuteCount -= counts[this.head] as number;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > times.length) this.compact();
  }

  private compact(): void {
    this.times = this.times.slice(this.head);
    this.counts = this.counts.slice(this.head);
    this.secondHead -= this.head;
    this.head = 0;
  }

  private record(now: number): void {
    const last = this.times.length - 1;
    if (last >= this.head && this.times[last] === now) this.counts[last] = (this.counts[last] as number) + 1;
    else {
      this.times.push(now);
      this.counts.push(1);
    }
    this.minuteCount++;
    this.secondCount++;
  }

  /** The earliest time at which both windows would admit one more request. */
  private freeAt(limits: Limits): number {
    let at = 0;
    if (this.minuteCount >= limits.perMinute) {
      at = this.timeOfOldest(this.head, this.minuteCount - limits.perMinute + 1) + MINUTE_MS;
    }
    if (this.secondCount >= limits.perSecond) {
      at = Math.max(at, this.timeOfOldest(this.secondHead, this.secondCount - limits.perSecond + 1) + SECOND_MS);
    }
    return at;
  }

  /** The time of the n-th oldest admission counted from entry `from` (n >= 1). */
  private timeOfOldest(from: number, n: number): number {
    let seen = 0;
    for (let i = from; i < this.times.length; i++) {
      seen += this.counts[i] as number;
      if (seen >= n) return this.times[i] as number;
    }
    return this.newest;
  }
}
