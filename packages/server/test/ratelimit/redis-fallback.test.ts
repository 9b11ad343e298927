// Redis going away and coming back (design §5.7; /readyz): requests keep being served under
// per-instance limits, readiness says "degraded" without failing, and once Redis is back the
// limits are shared again. Uses its own throw-away redis-server so the machine's Redis is
// never touched; two app instances share one SQLite file and that Redis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { HANG_GUARD_MS } from '../helpers/hang-guard.js';
import { manualClock, startTestApi, type ApiResponse, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  assertAdmitted,
  assertRateLimitHeaders,
  assertRateLimited,
  canRun,
  MINUTE,
  SECOND,
  skipOrFailWithoutRedis,
  sleep,
  startOwnRedis,
  stopChild,
  waitFor,
  withinASecond,
  type OwnRedis,
} from './support.js';

/** docs/rate-limits.md: "Each request waits for Redis at most 250 ms before the local window decides". */
const WAITS_AT_MOST_MS = 250;

/**
 * Runs `request` `times` times, one after another, and returns the fastest in milliseconds. A
 * limiter that waited for Redis longer than its bound would make every one of them slower than
 * that, while on a busy machine any one request may be slow for reasons of its own: the fastest
 * shows the bound without resting on how the machine treats one request.
 */
async function fastestOf(times: number, request: () => Promise<void>): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < times; i++) {
    const startedAt = Date.now();
    await request();
    fastest = Math.min(fastest, Date.now() - startedAt);
  }
  return fastest;
}

interface Env {
  redis: OwnRedis;
  api: TestApi;
  second: FastifyInstance;
}

describe('Redis down and back: per-instance fallback, readiness, sharing resumes', () => {
  let available = false;
  const envs: Env[] = [];

  before(async () => {
    available = await canRun('redis-server', ['--version']);
  });

  after(async () => {
    for (const env of envs) {
      await env.second.close();
      await env.api.close();
      await stopChild(env.redis.child, 2000);
    }
  });

  /** Our own redis-server, and two app instances on one SQLite file sharing it. */
  async function setUp(clocks: [Clock?, Clock?] = []): Promise<Env> {
    const redis = await startOwnRedis();
    const api = await startTestApi({
      rateLimits: true,
      redisUrl: redis.url,
      ...(clocks[0] ? { clock: clocks[0] } : {}),
    });
    const second = await buildApp({
      ...(clocks[1] ? { clock: clocks[1] } : {}),
      config: {
        databaseUrl: api.databasePath,
        logLevel: 'silent',
        migrateOnStart: false,
        rateLimits: true,
        redisUrl: redis.url,
      },
    });
    const env = { redis, api, second };
    envs.push(env);
    await second.ready();
    return env;
  }

  /** The same GET on instance 0 (the harness app) or 1 (the second app on the same database). */
  async function on(env: Env, instance: 0 | 1, url: string, key?: TestKey): Promise<ApiResponse> {
    if (instance === 0) return env.api.request('GET', url, { key: key ?? null });
    const raw = await env.second.inject({
      method: 'GET',
      url,
      headers: key ? { authorization: `Bearer ${key.key}` } : {},
    });
    return { status: raw.statusCode, headers: raw.headers, body: raw.json(), raw };
  }

  async function readiness(env: Env, instance: 0 | 1): Promise<{ status: number; body: any }> {
    const res = await on(env, instance, '/readyz');
    return { status: res.status, body: res.body };
  }

  /** Polls /readyz of both instances; with `traffic`, each poll also makes one limited request first. */
  async function waitReady(env: Env, want: 'ok' | 'unreachable', traffic?: TestKey) {
    for (const instance of [0, 1] as const) {
      const ready = await waitFor(
        `instance ${instance} to report Redis ${want}`,
        async () => {
          if (traffic) await on(env, instance, '/v1/snapshots', traffic);
          const r = await readiness(env, instance);
          return r.body.checks?.redis === want ? r : undefined;
        },
        HANG_GUARD_MS,
        100,
      ).catch(async (err: Error) => {
        throw new Error(`${err.message}; last /readyz: ${JSON.stringify((await readiness(env, instance)).body)}`);
      });
      assert.equal(ready.status, 200, 'ready either way: a Redis outage does not take the instance out of rotation');
      assert.equal(ready.body.status, want === 'ok' ? 'ok' : 'degraded', JSON.stringify(ready.body));
      assert.equal(ready.body.checks.database, 'ok');
    }
  }

  /** Alternating instances, a fresh Free key's Remaining must fall by one per request: one window. */
  async function assertShared(env: Env, what: string) {
    const key = await env.api.newKey({ plan: 'free' });
    for (let i = 1; i <= 6; i++) {
      const res = await on(env, (i % 2) as 0 | 1, '/v1/snapshots', key);
      assert.equal(res.status, 200, `${what}: request ${i}`);
      assertRateLimitHeaders(res, { limit: 60, remaining: 60 - i }, `${what}: request ${i} on instance ${i % 2}`);
    }
  }

  it('Redis killed and restarted: served under per-instance limits meanwhile, /readyz degraded (200), then ok and shared again', async (t) => {
    if (!available) return skipOrFailWithoutRedis(t, 'no redis-server binary to start', 'install redis-server');
    const env = await setUp();
    const port = env.redis.port;
    await waitReady(env, 'ok');
    await assertShared(env, 'Redis up');

    // Redis goes away.
    await stopChild(env.redis.child, 1000);
    const during = await env.api.newKey({ plan: 'free' });
    const took = await fastestOf(4, async () => {
      const res = await on(env, 0, '/v1/snapshots', during);
      assert.equal(res.status, 200, `still served right after Redis died: ${JSON.stringify(res.body)}`);
    });
    assert.ok(took < WAITS_AT_MOST_MS * 4, `served without waiting on Redis beyond its bound (fastest ${took} ms)`);
    await waitReady(env, 'unreachable');

    // Per-instance windows: each instance admits a full burst of its own, then 429.
    for (const instance of [0, 1] as const) {
      const { key, admitted, eleventh } = await withinASecond(async () => {
        const key = await env.api.newKey({ plan: 'free' });
        const admitted = [];
        for (let i = 1; i <= 10; i++) admitted.push(await on(env, instance, '/v1/snapshots', key));
        return { key, admitted, eleventh: await on(env, instance, '/v1/snapshots', key) };
      });
      admitted.forEach((res, i) => {
        assertAdmitted(res, `instance ${instance}, request ${i + 1} during the outage`);
        assertRateLimitHeaders(res, { limit: 60, remaining: 60 - (i + 1) });
      });
      assertRateLimited(eleventh, 1, `instance ${instance}, 11th within a second`);
      // The other instance knows nothing of this window while Redis is down.
      const other = await on(env, instance === 0 ? 1 : 0, '/v1/snapshots', key);
      assertAdmitted(other, 'the other instance has its own window during the outage');
      assertRateLimitHeaders(other, { limit: 60, remaining: 59 });
    }

    // Redis comes back on the same port.
    env.redis = await startOwnRedis(port);
    await waitReady(env, 'ok');
    await assertShared(env, 'Redis back');
  });

  it('Redis stalls (SIGSTOP ~1 s) and resumes: served meanwhile, each request waiting on it at most its bound, then /readyz ok again and shared', async (t) => {
    if (!available) return skipOrFailWithoutRedis(t, 'no redis-server binary to start', 'install redis-server');
    const env = await setUp();
    await waitReady(env, 'ok');
    const key = await env.api.newKey({ plan: 'free' });
    env.redis.child.kill('SIGSTOP');
    try {
      // Answered while Redis is still stopped: no request waits for it to come back.
      let i = 0;
      const took = await fastestOf(4, async () => {
        const instance = (++i % 2) as 0 | 1;
        const res = await on(env, instance, '/v1/snapshots', key);
        assertAdmitted(res, `request ${i} on instance ${instance} while Redis hangs`);
        assert.match(String(res.headers['x-ratelimit-remaining']), /^\d+$/);
      });
      assert.ok(
        took < WAITS_AT_MOST_MS * 4,
        `each request waits on a hung Redis at most its bound (fastest ${took} ms)`,
      );
      await sleep(1000);
    } finally {
      env.redis.child.kill('SIGCONT');
    }
    // Redis answers again on the same connection: readiness must say so, not stay "degraded"
    // (requests keep flowing meanwhile, so a limiter that learns from its calls can notice).
    const roomy = await env.api.newKey({ plan: 'enterprise', rpm: 100_000, burst: 10_000 });
    await waitReady(env, 'ok', roomy);
    await assertShared(env, 'after the stall');
  });

  it("time is Redis's: instances whose clocks are two hours apart share one window, with real-time Reset and an exact Retry-After", async (t) => {
    if (!available) return skipOrFailWithoutRedis(t, 'no redis-server binary to start', 'install redis-server');
    const now = Date.now();
    const env = await setUp([manualClock(now - 3_600_000), manualClock(now + 3_600_000)]);
    await waitReady(env, 'ok');
    const { key, before, admitted, refused, refusedAt } = await withinASecond(async () => {
      const key = await env.api.newKey({ plan: 'enterprise', rpm: 1000, burst: 3 });
      const before = Date.now();
      const admitted = [];
      for (let i = 1; i <= 3; i++) {
        const res = await on(env, (i % 2) as 0 | 1, '/v1/snapshots', key);
        admitted.push({ res, answeredAt: Date.now() });
      }
      const refused = await on(env, 0, '/v1/snapshots', key);
      return { key, before, admitted, refused, refusedAt: Date.now() };
    });
    admitted.forEach(({ res, answeredAt }, index) => {
      const i = index + 1;
      const instance = i % 2;
      assertAdmitted(res, `request ${i} on instance ${instance}`);
      assertRateLimitHeaders(res, { limit: 1000, remaining: 1000 - i });
      const reset = Number(res.headers['x-ratelimit-reset']);
      const low = Math.ceil((before + MINUTE) / 1000);
      const high = Math.ceil((answeredAt + MINUTE) / 1000);
      assert.ok(
        reset >= low && reset <= high,
        `instance ${instance}: Reset ${reset} is a minute from real now [${low}, ${high}]`,
      );
    });
    assertRateLimited(refused, 1, 'the 4th within a second, whichever instance');
    assert.equal(refused.headers.ratelimit, '"second";r=0;t=1', 'the draft header names the window that refused');
    const wakeAt = refusedAt + SECOND;
    while (Date.now() < wakeAt) await sleep(Math.max(1, wakeAt - Date.now()));
    const again = await on(env, 1, '/v1/snapshots', key);
    assertAdmitted(again, 'after sleeping exactly Retry-After');
    assertRateLimitHeaders(again, { limit: 1000, remaining: 996 });
  });
});
