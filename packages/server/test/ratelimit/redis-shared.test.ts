// Limits shared through Redis by two real server processes (design §5.7: "With REDIS_URL set,
// every instance shares them in Redis, atomically"). Needs the built CLI (`npm run build`) and
// a Redis at REDIS_URL or redis://127.0.0.1:6379; without Redis the test fails under CI and is
// skipped, with a notice, elsewhere.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HANG_GUARD_MS } from '../helpers/hang-guard.js';
import { DEFAULT_REDIS_URL, freePort, redisReachable, skipOrFailWithoutRedis, stopChild, waitFor } from './support.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/snapgraph.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/cli/index.js', import.meta.url));

interface CreatedKey {
  key: string;
  key_id: string;
}

interface Outcome {
  instance: number;
  status: number;
  limit: number;
  remaining: number;
  retryAfter: number | undefined;
  /** Date.now() when the request was sent and when its answer had arrived. */
  sentAt: number;
  answeredAt: number;
}

describe('shared limits: two server processes, one Redis', () => {
  const redisUrl = DEFAULT_REDIS_URL;
  let reachable = false;
  let dir: string | undefined;
  const servers: { child: ChildProcess; port: number; stderr: string[] }[] = [];
  let env: NodeJS.ProcessEnv;

  async function createKey(...args: string[]): Promise<CreatedKey> {
    const { stdout } = await run(process.execPath, [BIN, 'keys', 'create', ...args, '--json'], {
      env,
      timeout: HANG_GUARD_MS,
    });
    return JSON.parse(stdout) as CreatedKey;
  }

  before(async () => {
    reachable = await redisReachable(redisUrl);
    if (!reachable) return;
    assert.ok(existsSync(BUILT), 'the built CLI is missing: run `npm run build` in the repository root first');
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-redis-shared-'));
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: join(dir, 'snapgraph.db'),
      REDIS_URL: redisUrl,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      RATE_LIMITS: 'true',
    };
    await createKey('--plan', 'free'); // migrates the database once, before both servers start
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const child = spawn(process.execPath, [BIN, 'serve'], {
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const stderr: string[] = [];
      child.stderr?.on('data', (data: Buffer) => stderr.push(data.toString()));
      servers.push({ child, port, stderr });
    }
    for (const server of servers) {
      await waitFor(
        `server on port ${server.port} (stderr: ${server.stderr.join('')})`,
        async () => {
          if (server.child.exitCode !== null)
            throw new Error(`exited ${server.child.exitCode}: ${server.stderr.join('')}`);
          const res = await fetch(`http://127.0.0.1:${server.port}/readyz`);
          const body = (await res.json()) as { checks?: Record<string, string> };
          return res.status === 200 && body.checks?.redis === 'ok' ? true : undefined;
        },
        HANG_GUARD_MS,
        100,
      );
    }
  });

  after(async () => {
    await Promise.all(servers.map((s) => stopChild(s.child, 3000)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Four concurrent clients, each alternating between the two instances, until `ms` have passed
   * and each instance has been asked at least `perInstance` times: the first for the windows
   * under test to roll, the second so that however slowly this machine runs, each instance alone
   * was asked for more than the limit.
   */
  async function hammer(
    key: string,
    { ms, perInstance }: { ms: number; perInstance: number },
  ): Promise<{ outcomes: Outcome[]; spanMs: number }> {
    const outcomes: Outcome[] = [];
    const asked = [0, 0];
    const startedAt = Date.now();
    const done = () => Date.now() >= startedAt + ms && asked[0]! >= perInstance && asked[1]! >= perInstance;
    await Promise.all(
      [0, 1, 2, 3].map(async (worker) => {
        for (let i = worker; !done(); i++) {
          const instance = i % 2;
          asked[instance]!++;
          const sentAt = Date.now();
          const res = await fetch(`http://127.0.0.1:${servers[instance]!.port}/v1/snapshots`, {
            headers: { authorization: `Bearer ${key}` },
          });
          await res.arrayBuffer();
          const retryAfter = res.headers.get('retry-after');
          outcomes.push({
            instance,
            status: res.status,
            limit: Number(res.headers.get('x-ratelimit-limit')),
            remaining: Number(res.headers.get('x-ratelimit-remaining')),
            retryAfter: retryAfter === null ? undefined : Number(retryAfter),
            sentAt,
            answeredAt: Date.now(),
          });
        }
      }),
    );
    // Every decision was taken between the first send and the last answer.
    return { outcomes, spanMs: Date.now() - startedAt };
  }

  function summarize(outcomes: Outcome[]) {
    const admitted = outcomes.filter((o) => o.status === 200);
    const perInstance = [0, 1].map((i) => admitted.filter((o) => o.instance === i).length);
    const others = outcomes.filter((o) => o.status !== 200 && o.status !== 429);
    assert.deepEqual(others, [], 'only 200 and 429 while hammering');
    return { admitted, perInstance, total: admitted.length };
  }

  it('Free key, GET /v1/snapshots through both for 1.5 s: at most the burst per second, one shared window', async (t) => {
    if (!reachable) return skipOrFailWithoutRedis(t, `cannot reach ${redisUrl}`);
    const free = await createKey('--plan', 'free');
    const { outcomes, spanMs } = await hammer(free.key, { ms: 1500, perInstance: 25 });
    const { admitted, perInstance, total } = summarize(outcomes);
    // A span of ~1.5 s is covered by two rolling seconds: at most two bursts of 10, however they
    // align; a longer one (a slow machine) by as many seconds as it lasted.
    const seconds = Math.floor(spanMs / 1000) + 1;
    assert.ok(total >= 10, `a greedy client gets at least one full burst (${total})`);
    assert.ok(
      total <= 10 * seconds,
      `no more than the burst per second across both instances (${total} admitted in ${spanMs} ms)`,
    );
    assert.ok(total <= 60, 'and never more than the minute limit');
    // Each instance alone was asked for more than a burst: separate windows would have admitted
    // up to twice as many, so the bound above is the proof that the window is shared. (Which
    // instance wins the admissions depends on scheduling, so it is not asserted.)
    const answered = [0, 1].map((i) => outcomes.filter((o) => o.instance === i).length);
    assert.ok(
      answered[0]! > 20 && answered[1]! > 20,
      `both instances were hammered (${answered}; admitted ${perInstance})`,
    );
    // One window: every admission, whichever instance made it, took the next Remaining value.
    const remaining = admitted.map((o) => o.remaining).sort((a, b) => b - a);
    assert.deepEqual(
      remaining,
      Array.from({ length: total }, (_v, i) => 59 - i),
      'Remaining values of the 200s are 59, 58, … once each across both instances',
    );
    for (const o of outcomes) {
      assert.equal(o.limit, 60);
      if (o.status === 429) {
        assert.equal(o.remaining, 0);
        assert.ok(o.retryAfter !== undefined && o.retryAfter >= 1 && o.retryAfter <= 60, `Retry-After ${o.retryAfter}`);
      }
    }
  });

  it('Enterprise key (rpm 12, burst 10) through both for 2.5 s: exactly the minute limit in total, shared', async (t) => {
    if (!reachable) return skipOrFailWithoutRedis(t, `cannot reach ${redisUrl}`);
    const key = await createKey('--plan', 'enterprise', '--rpm', '12', '--burst', '10');
    // Long enough for the burst window to roll at least once after the first admission.
    const { outcomes } = await hammer(key.key, { ms: 2500, perInstance: 15 });
    const { admitted, perInstance, total } = summarize(outcomes);
    assert.equal(total, 12, `exactly 12 admitted across both instances (per instance: ${perInstance})`);
    const answered = [0, 1].map((i) => outcomes.filter((o) => o.instance === i).length);
    assert.ok(
      answered[0]! > 12 && answered[1]! > 12,
      `each instance alone was asked for more than the limit (${answered})`,
    );
    assert.deepEqual(
      admitted.map((o) => o.remaining).sort((a, b) => b - a),
      [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    );
    const waits = outcomes.filter((o) => o.status === 429).map((o) => o.retryAfter);
    assert.ok(waits.length > 0);
    assert.ok(
      waits.every((w) => w !== undefined && w >= 1 && w <= 60),
      `Retry-After in whole seconds up to the minute (${[...new Set(waits)]})`,
    );
    // Once the minute limit is reached (after the burst window rolled) the wait is the rest of the
    // minute: until the first admission leaves the window, less however long has passed since.
    const first = outcomes.filter((o) => o.status === 200).sort((a, b) => a.sentAt - b.sentAt)[0]!;
    const last = outcomes
      .filter((o) => o.status === 429)
      .sort((a, b) => a.answeredAt - b.answeredAt)
      .at(-1)!;
    const atLeast = Math.floor((first.sentAt + 60_000 - last.answeredAt) / 1000);
    assert.ok(
      last.retryAfter! >= atLeast && atLeast > 1,
      `the last refusals wait for the minute window (Retry-After ${last.retryAfter}, at least ${atLeast})`,
    );
  });
});
