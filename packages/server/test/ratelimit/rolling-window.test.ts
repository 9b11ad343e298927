// The limiter itself, driven directly with simulated time (design §5.4): exact rolling windows
// (never the 69 of a token bucket or the 120 of two fixed windows), a Retry-After that a client
// can trust, refusals that consume nothing, and memory that follows only the active buckets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import { RollingWindow } from '../../src/ratelimit/rolling-window.js';
import { manualClock } from '../helpers/harness.js';
import { MINUTE, SECOND, prng, type Limits } from './support.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z') + 437; // deliberately not on a second boundary

/** The most timestamps (sorted) that fall in any window [t, t + width): a two-pointer sweep. */
function maxInAnyWindow(times: number[], width: number): number {
  let best = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    if (j < i) j = i;
    while (j < times.length && (times[j] as number) < (times[i] as number) + width) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

const countIn = (times: number[], from: number, to: number) => times.filter((t) => t >= from && t < to).length;

/**
 * An obviously-correct model of design §5.4: a request at `now` is admitted iff fewer than
 * perMinute admissions lie in (now - 60 s, now] and fewer than perSecond in (now - 1 s, now].
 */
class ReferenceWindow {
  private admitted: number[] = [];

  private fits(at: number, limits: Limits): boolean {
    const inMinute = this.admitted.filter((t) => t > at - MINUTE).length;
    const inSecond = this.admitted.filter((t) => t > at - SECOND).length;
    return inMinute < limits.perMinute && inSecond < limits.perSecond;
  }

  consume(now: number, limits: Limits) {
    this.admitted = this.admitted.filter((t) => t > now - MINUTE);
    const allowed = this.fits(now, limits);
    if (allowed) this.admitted.push(now);
    const newest = this.admitted.length ? (this.admitted[this.admitted.length - 1] as number) : undefined;
    let retryAfterMs = 0;
    if (!allowed) {
      // The earliest moment at which one more fits: some admission leaves a window then.
      const candidates = this.admitted.flatMap((t) => [t + SECOND, t + MINUTE]).filter((c) => c > now);
      const at = Math.min(...candidates.filter((c) => this.fits(c, limits)));
      retryAfterMs = at - now;
    }
    return {
      allowed,
      remaining: allowed ? limits.perMinute - this.admitted.length : 0,
      resetAtMs: newest === undefined ? now : newest + MINUTE,
      retryAfterMs,
    };
  }
}

const TABLE: { name: string; limits: Limits }[] = [
  { name: 'Free snapshots_read (60/min, 10/s)', limits: { perMinute: 60, perSecond: 10 } },
  { name: 'Free snapshots_write (30/min, 5/s)', limits: { perMinute: 30, perSecond: 5 } },
  { name: 'Pro snapshots_read (300/min, 30/s)', limits: { perMinute: 300, perSecond: 30 } },
  { name: 'Free crystallize (10/min, 2/s)', limits: { perMinute: 10, perSecond: 2 } },
  { name: 'enterprise (1000/min, 100/s)', limits: { perMinute: 1000, perSecond: 100 } },
  { name: 'burst above the minute (5/min, 8/s)', limits: { perMinute: 5, perSecond: 8 } },
];

describe('RollingWindow: the greedy client (one request every simulated ms for 3 minutes)', () => {
  for (const { name, limits } of TABLE) {
    for (const perMs of [1, 3]) {
      it(`${name}, ${perMs} request(s) per ms: never above either limit in any rolling window, and exactly the limit`, () => {
        const window = new RollingWindow();
        const admitted: number[] = [];
        for (let ms = 0; ms < 3 * MINUTE; ms++) {
          for (let k = 0; k < perMs; k++) {
            if (window.consume(T0 + ms, limits).allowed) admitted.push(ms);
          }
        }
        assert.ok(maxInAnyWindow(admitted, MINUTE) <= limits.perMinute, 'more than the minute limit in some 60 s');
        assert.ok(maxInAnyWindow(admitted, SECOND) <= limits.perSecond, 'more than the burst in some 1 s');
        // ...and not less: a greedy client is owed exactly its limits.
        const minuteCap = limits.perMinute;
        const secondCap = Math.min(limits.perSecond, limits.perMinute);
        assert.equal(maxInAnyWindow(admitted, MINUTE), minuteCap, 'a full minute window');
        assert.equal(maxInAnyWindow(admitted, SECOND), secondCap, 'a full burst');
        assert.equal(countIn(admitted, 0, MINUTE), minuteCap, 'first minute');
        assert.equal(countIn(admitted, 0, SECOND), secondCap, 'first second');
        assert.equal(admitted.length, 3 * minuteCap, 'three minutes');
        for (const boundary of [MINUTE, 2 * MINUTE]) {
          // Two fixed windows would admit up to twice the limit around their boundary.
          assert.ok(countIn(admitted, boundary - MINUTE / 2, boundary + MINUTE / 2) <= minuteCap, 'boundary');
        }
      });
    }
  }

  it('Free snapshots_read: 60 in the first minute — not 69 (token bucket of 10) nor 120 (fixed windows at a boundary)', () => {
    const window = new RollingWindow();
    const limits = { perMinute: 60, perSecond: 10 };
    const admitted: number[] = [];
    for (let ms = 0; ms < 3 * MINUTE; ms++) if (window.consume(T0 + ms, limits).allowed) admitted.push(ms);
    assert.equal(countIn(admitted, 0, MINUTE), 60);
    // The 60 come as six bursts of 10, one per second; the 61st only when the first leaves.
    assert.deepEqual(
      admitted.slice(0, 12),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1000, 1001],
      'ten at once, the next exactly 1 s after the first',
    );
    assert.equal(admitted[59], 5009);
    assert.equal(admitted[60], MINUTE, 'the 61st exactly when the first is 60 s old');
    assert.equal(maxInAnyWindow(admitted, MINUTE), 60);
  });

  it('MemoryRateLimiter on an injected clock: the greedy client gets exactly 60 per rolling minute, per bucket', async () => {
    const clock = manualClock(T0);
    const limiter = new MemoryRateLimiter(clock);
    const limits = { perMinute: 60, perSecond: 10 };
    const admitted: Record<string, number[]> = { a: [], b: [] };
    for (let ms = 0; ms < 3 * MINUTE; ms++) {
      clock.set(T0 + ms);
      for (const bucket of ['a', 'b']) {
        const decision = await limiter.consume(bucket, limits);
        assert.equal(decision.nowMs, T0 + ms, 'the limiter uses the injected clock');
        if (decision.allowed) admitted[bucket]?.push(ms);
      }
    }
    for (const bucket of ['a', 'b']) {
      const times = admitted[bucket] as number[];
      assert.equal(times.length, 180, bucket);
      assert.equal(maxInAnyWindow(times, MINUTE), 60, bucket);
      assert.equal(maxInAnyWindow(times, SECOND), 10, bucket);
    }
  });
});

describe('RollingWindow: agrees with a reference model on random traffic', () => {
  for (const { name, limits } of TABLE) {
    it(`${name}: allowed, remaining, reset and retry-after match request by request`, () => {
      const random = prng(limits.perMinute * 7919 + limits.perSecond);
      const window = new RollingWindow();
      const reference = new ReferenceWindow();
      let now = T0;
      for (let i = 0; i < 6000; i++) {
        const r = random();
        now += r < 0.3 ? 0 : r < 0.8 ? Math.floor(random() * 60) : r < 0.97 ? Math.floor(random() * 2000) : 61_000;
        const got = window.consume(now, limits);
        const want = reference.consume(now, limits);
        const context = `request ${i} at +${now - T0} ms`;
        assert.equal(got.allowed, want.allowed, `${context}: allowed`);
        assert.equal(got.remaining, want.remaining, `${context}: remaining`);
        assert.equal(got.resetAtMs, want.resetAtMs, `${context}: resetAtMs`);
        assert.equal(got.retryAfterMs, want.retryAfterMs, `${context}: retryAfterMs`);
        assert.equal(got.limit, limits.perMinute, context);
        assert.ok(got.remaining >= 0, `${context}: remaining never negative`);
      }
    });
  }
});

describe('RollingWindow: a client that sleeps exactly Retry-After is admitted', () => {
  for (const { name, limits } of TABLE) {
    it(`${name}: from 150 random phases, every retry after ceil(retryAfterMs / 1000) s is admitted`, () => {
      const random = prng(0x5eed + limits.perMinute);
      let refusals = 0;
      for (let phase = 0; phase < 150; phase++) {
        const window = new RollingWindow();
        const start = T0 + Math.floor(random() * 3_600_000);
        const eagerness = 0.5 + random() * 0.49; // how often the next request follows at once
        let now = start;
        while (now < start + 3 * MINUTE) {
          const decision = window.consume(now, limits);
          if (decision.allowed) {
            const r = random();
            now += r < eagerness ? 0 : r < 0.995 ? Math.floor(random() * 150) : Math.floor(random() * 3000);
            continue;
          }
          refusals++;
          assert.ok(decision.retryAfterMs > 0, 'a refusal names a positive wait');
          const retryAfter = Math.ceil(decision.retryAfterMs / 1000); // what the header carries
          assert.ok(retryAfter >= 1);
          now += retryAfter * 1000;
          const retry = window.consume(now, limits);
          assert.ok(retry.allowed, `phase ${phase}: slept Retry-After ${retryAfter} s and was refused again`);
          now += Math.floor(random() * 20);
        }
      }
      assert.ok(refusals >= 150, `the scenario must actually be refused often (${refusals})`);
    });
  }

  it('the wait is the least whole number of seconds: one second less is still refused (minute and burst)', () => {
    const limits = { perMinute: 60, perSecond: 10 };
    const window = new RollingWindow();
    for (let i = 0; i < 10; i++) assert.ok(window.consume(T0, limits).allowed);
    const burst = window.consume(T0 + 999, limits);
    assert.equal(burst.allowed, false);
    assert.equal(burst.retryAfterMs, 1);
    assert.ok(window.consume(T0 + 1000, limits).allowed, 'exactly 1 s after the burst');
    for (let s = 2; s <= 6; s++) for (let i = 0; i < 10; i++) window.consume(T0 + s * 1000, limits);
    const minute = window.consume(T0 + 30_500, limits);
    assert.equal(minute.allowed, false);
    assert.equal(minute.retryAfterMs, MINUTE - 30_500, 'until the oldest admission is 60 s old');
    assert.equal(Math.ceil(minute.retryAfterMs / 1000), 30);
    assert.equal(window.consume(T0 + 30_500 + 29_000, limits).allowed, false, '29 s is not enough');
    assert.equal(window.consume(T0 + 59_999, limits).allowed, false, '1 ms early');
    assert.ok(window.consume(T0 + 60_000, limits).allowed, 'exactly 60 s after the oldest');
  });
});

describe('RollingWindow: refusals consume nothing', () => {
  for (const { name, limits } of TABLE) {
    it(`${name}: hammering through refusals, admitted again the very ms the window allows`, () => {
      const hammer = new RollingWindow();
      const polite = new RollingWindow(); // sees only the requests the hammer got admitted
      let refusedSince: { at: number; retryAfterMs: number } | undefined;
      let streaks = 0;
      for (let ms = 0; ms < 3 * MINUTE; ms++) {
        const now = T0 + ms;
        for (let k = 0; k < 4; k++) {
          const decision = hammer.consume(now, limits);
          if (!decision.allowed) {
            refusedSince ??= { at: now, retryAfterMs: decision.retryAfterMs };
            continue;
          }
          if (refusedSince) {
            assert.equal(now, refusedSince.at + refusedSince.retryAfterMs, 'admitted exactly when first promised');
            refusedSince = undefined;
            streaks++;
          }
          const twin = polite.consume(now, limits);
          assert.ok(twin.allowed);
          assert.equal(decision.remaining, twin.remaining, 'the refused requests left no trace');
          assert.equal(decision.resetAtMs, twin.resetAtMs);
        }
      }
      assert.ok(streaks >= 2, `refusal streaks were exercised (${streaks})`);
    });
  }
});

describe('MemoryRateLimiter: idle windows are swept', () => {
  it('after a minute without admissions the windows go away (size back to 1, then 0)', async () => {
    const clock = manualClock(T0);
    const limiter = new MemoryRateLimiter(clock);
    const limits = { perMinute: 60, perSecond: 10 };
    for (let i = 0; i < 3000; i++) await limiter.consume(`bucket-${i}`, limits);
    assert.equal(limiter.size, 3000, 'every active bucket is kept within the minute');
    clock.advance(MINUTE);
    // Enough calls for any periodic sweep to run, all on one bucket.
    for (let i = 0; i < 5000; i++) {
      clock.advance(1);
      await limiter.consume('survivor', { perMinute: 1_000_000, perSecond: 1_000_000 });
    }
    assert.equal(limiter.size, 1, 'only the bucket active in the last minute is left');
    clock.advance(MINUTE);
    limiter.sweep();
    assert.equal(limiter.size, 0, 'nothing is left after a minute of inactivity');
  });

  it('windows admitted within the last minute survive a sweep (sweeping forgets nothing that matters)', async () => {
    const clock = manualClock(T0);
    const limiter = new MemoryRateLimiter(clock);
    const limits = { perMinute: 3, perSecond: 3 };
    for (let i = 0; i < 3; i++) assert.ok((await limiter.consume('k', limits)).allowed);
    clock.advance(MINUTE - 1);
    limiter.sweep();
    assert.equal((await limiter.consume('k', limits)).allowed, false, 'still full 1 ms before the minute ends');
    clock.advance(1);
    assert.ok((await limiter.consume('k', limits)).allowed);
  });

  it('many distinct buckets over 10 simulated minutes: the map stays bounded by the last minute', async () => {
    const clock = manualClock(T0);
    const limiter = new MemoryRateLimiter(clock);
    const limits = { perMinute: 60, perSecond: 10 };
    let peak = 0;
    let id = 0;
    for (let second = 0; second < 600; second++) {
      for (let i = 0; i < 100; i++) {
        clock.set(T0 + second * 1000 + i * 10);
        await limiter.consume(`client-${id++}`, limits);
        peak = Math.max(peak, limiter.size);
      }
    }
    assert.equal(id, 60_000);
    // At most the buckets of the last minute (6,000) plus those added between two sweeps.
    assert.ok(peak <= 6_100 + 1_024, `peak ${peak} buckets: unbounded growth`);
    assert.ok(limiter.size <= 6_100 + 1_024, `final ${limiter.size}`);
  });
});
