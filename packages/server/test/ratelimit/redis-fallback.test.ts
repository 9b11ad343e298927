// Redis going away and coming back (DESIGN 1.5; /readyz): requests keep being served under
// per-instance limits, readiness says "degraded" without failing, and once Redis is back the
// limits are shared again. Uses its own throw-away redis-server so the machine's Redis is
// never touched; two app instances share one SQLite file and that Redis.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
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
  type OwnRedis,
} from './support.js';

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
  async function waitReady(env: Env, want: 'ok' | 'unreachable', timeoutMs: number, traffic?: TestKey) {
    for (const instance of [0, 1] as const) {
      const ready = await waitFor(
        `instance ${instance} to report Redis ${want}`,
        async () => {
          if (traffic) await on(env, instance, '/v1/snapshots', traffic);
          const r = await readiness(env, instance);
          return r.body.checks?.redis === want ? r : undefined;
        },
        timeoutMs,
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
    await waitReady(env, 'ok', 1000);
    await assertShared(env, 'Redis up');

    // Redis goes away.
    await stopChild(env.redis.child, 1000);
    const during = await env.api.newKey({ plan: 'free' });
    const startedAt = Date.now();
    const first = await on(env, 0, '/v1/snapshots', during);
    assert.equal(first.status, 200, `still served right after Redis died: ${JSON.stringify(first.body)}`);
    assert.ok(Date.now() - startedAt < 1000, 'served promptly, not after waiting on Redis');
    await waitReady(env, 'unreachable', 3000);

    // Per-instance windows: each instance admits a full burst of its own, then 429.
    for (const instance of [0, 1] as const) {
      const key = await env.api.newKey({ plan: 'free' });
      for (let i = 1; i <= 10; i++) {
        const res = await on(env, instance, '/v1/snapshots', key);
        assertAdmitted(res, `instance ${instance}, request ${i} during the outage`);
        assertRateLimitHeaders(res, { limit: 60, remaining: 60 - i });
      }
      assertRateLimited(await on(env, instance, '/v1/snapshots', key), 1, `instance ${instance}, 11th within a second`);
      // The other instance knows nothing of this window while Redis is down.
      const other = await on(env, instance === 0 ? 1 : 0, '/v1/snapshots', key);
      assertAdmitted(other, 'the other instance has its own window during the outage');
      assertRateLimitHeaders(other, { limit: 60, remaining: 59 });
    }

    // Redis comes back on the same port.
    env.redis = await startOwnRedis(port);
    await waitReady(env, 'ok', 8000);
    await assertShared(env, 'Redis back');
  });

  it('Redis stalls (SIGSTOP ~1 s) and resumes: served promptly meanwhile, then /readyz ok again within a few seconds and shared', async (t) => {
    if (!available) return skipOrFailWithoutRedis(t, 'no redis-server binary to start', 'install redis-server');
    const env = await setUp();
    await waitReady(env, 'ok', 1000);
    const key = await env.api.newKey({ plan: 'free' });
    env.redis.child.kill('SIGSTOP');
    try {
      for (let i = 1; i <= 4; i++) {
        const instance = (i % 2) as 0 | 1;
        const startedAt = Date.now();
        const res = await on(env, instance, '/v1/snapshots', key);
        const took = Date.now() - startedAt;
        assertAdmitted(res, `request ${i} on instance ${instance} while Redis hangs`);
        assert.ok(took < 1000, `served within a second while Redis hangs (${took} ms)`);
        assert.match(String(res.headers['x-ratelimit-remaining']), /^\d+$/);
      }
      await sleep(1000);
    } finally {
      env.redis.child.kill('SIGCONT');
    }
    // Redis answers again on the same connection: readiness must say so, not stay "degraded"
    // (requests keep flowing meanwhile, so a limiter that learns from its calls can notice).
    const roomy = await env.api.newKey({ plan: 'enterprise', rpm: 100_000, burst: 10_000 });
    await waitReady(env, 'ok', 5000, roomy);
    await assertShared(env, 'after the stall');
  });

  it("time is Redis's: instances whose clocks are two hours apart share one window, with real-time Reset and an exact Retry-After", async (t) => {
    if (!available) return skipOrFailWithoutRedis(t, 'no redis-server binary to start', 'install redis-server');
    const now = Date.now();
    const env = await setUp([manualClock(now - 3_600_000), manualClock(now + 3_600_000)]);
    await waitReady(env, 'ok', 1000);
    const key = await env.api.newKey({ plan: 'enterprise', rpm: 1000, burst: 3 });
    const before = Date.now();
    for (let i = 1; i <= 3; i++) {
      const instance = (i % 2) as 0 | 1;
      const res = await on(env, instance, '/v1/snapshots', key);
      assertAdmitted(res, `request ${i} on instance ${instance}`);
      assertRateLimitHeaders(res, { limit: 1000, remaining: 1000 - i });
      const reset = Number(res.headers['x-ratelimit-reset']);
      const low = Math.ceil((before + MINUTE) / 1000);
      const high = Math.ceil((Date.now() + MINUTE) / 1000);
      assert.ok(
        reset >= low && reset <= high,
        `instance ${instance}: Reset ${reset} is a minute from real now [${low}, ${high}]`,
      );
    }
    const refused = await on(env, 0, '/v1/snapshots', key);
    const refusedAt = Date.now();
    assertRateLimited(refused, 1, 'the 4th within a second, whichever instance');
    assert.equal(refused.headers.ratelimit, '"second";r=0;t=1', 'the draft header names the window that refused');
    const wakeAt = refusedAt + SECOND;
    while (Date.now() < wakeAt) await sleep(Math.max(1, wakeAt - Date.now()));
    const again = await on(env, 1, '/v1/snapshots', key);
    assertAdmitted(again, 'after sleeping exactly Retry-After');
    assertRateLimitHeaders(again, { limit: 1000, remaining: 996 });
  });
});
