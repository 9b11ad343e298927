// Shared pieces of the rate-limit tests: the limit table of design §5.3 (written out here, not imported
// from src/, so that a wrong table in src/ is caught), the routes of every group, header and
// 429-body assertions, a seeded PRNG and the Redis plumbing (reachability, own redis-server).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { newId } from '../../src/ids.js';
import { HANG_GUARD_MS } from '../helpers/hang-guard.js';
import { snapshotBody, type ApiResponse, type TestApi, type TestKey } from '../helpers/harness.js';

export const MINUTE = 60_000;
export const SECOND = 1_000;

export interface Limits {
  perMinute: number;
  perSecond: number;
}

export type Group = 'snapshots_read' | 'snapshots_write' | 'edges';
export const GROUPS: Group[] = ['snapshots_read', 'snapshots_write', 'edges'];

/** Design §5.3 (Free, Pro): snapshots_write uses the POST /snapshots row. */
export const SPEC_LIMITS: Record<'free' | 'pro', Record<Group, Limits>> = {
  free: {
    snapshots_read: { perMinute: 60, perSecond: 10 },
    snapshots_write: { perMinute: 30, perSecond: 5 },
    edges: { perMinute: 60, perSecond: 10 },
  },
  pro: {
    snapshots_read: { perMinute: 300, perSecond: 30 },
    snapshots_write: { perMinute: 120, perSecond: 20 },
    edges: { perMinute: 300, perSecond: 30 },
  },
};

export interface PlanCase {
  name: string;
  key: { plan: 'free' | 'pro' | 'enterprise'; rpm?: number; burst?: number };
  limits(group: Group): Limits;
}

/** Enterprise custom limits chosen to differ from every Free/Pro number. */
export const ENTERPRISE_CUSTOM: Limits = { perMinute: 50, perSecond: 4 };

export const PLAN_CASES: PlanCase[] = [
  { name: 'free', key: { plan: 'free' }, limits: (g) => SPEC_LIMITS.free[g] },
  { name: 'pro', key: { plan: 'pro' }, limits: (g) => SPEC_LIMITS.pro[g] },
  {
    name: 'enterprise (rpm 50, burst 4)',
    key: { plan: 'enterprise', rpm: ENTERPRISE_CUSTOM.perMinute, burst: ENTERPRISE_CUSTOM.perSecond },
    limits: () => ENTERPRISE_CUSTOM,
  },
];

/** Objects every route of the table can point at, made with a separate (roomy) key of the same account. */
export interface Fixture {
  brainId: string;
  snapshotA: string;
  snapshotB: string;
  edgeId: string;
}

export interface RouteCase {
  group: Group;
  method: string;
  /** The route as design §5.2 names it, for titles. */
  name: string;
  path(f: Fixture, prefix: string): string;
  body?(f: Fixture): unknown;
}

export const ROUTES: RouteCase[] = [
  { group: 'snapshots_read', method: 'GET', name: 'GET /snapshots', path: (_f, p) => `${p}/snapshots` },
  {
    group: 'snapshots_read',
    method: 'GET',
    name: 'GET /snapshots/:id',
    path: (f, p) => `${p}/snapshots/${f.snapshotA}`,
  },
  { group: 'snapshots_read', method: 'GET', name: 'GET /brains', path: (_f, p) => `${p}/brains` },
  { group: 'snapshots_read', method: 'GET', name: 'GET /brains/:id', path: (f, p) => `${p}/brains/${f.brainId}` },
  {
    group: 'snapshots_write',
    method: 'POST',
    name: 'POST /snapshots',
    path: (_f, p) => `${p}/snapshots`,
    body: () => snapshotBody(),
  },
  {
    group: 'snapshots_write',
    method: 'PUT',
    name: 'PUT /snapshots/:id',
    path: (f, p) => `${p}/snapshots/${f.snapshotA}`,
    body: () => ({ name: 'Renamed by the rate-limit tests' }),
  },
  {
    group: 'snapshots_write',
    method: 'DELETE',
    name: 'DELETE /snapshots/:id',
    // A well-formed id that names nothing: the fixture stays, and the 404 still counts.
    path: (_f, p) => `${p}/snapshots/${newId('snap')}`,
  },
  {
    group: 'snapshots_write',
    method: 'POST',
    name: 'POST /brains',
    path: (_f, p) => `${p}/brains`,
    body: () => ({ name: 'Another brain' }),
  },
  {
    group: 'edges',
    method: 'POST',
    name: 'POST /edges',
    path: (_f, p) => `${p}/edges`,
    body: (f) => ({ source_id: f.snapshotA, target_id: f.snapshotB, edge_type: 'supports' }),
  },
  { group: 'edges', method: 'GET', name: 'GET /edges', path: (f, p) => `${p}/edges?snapshot_id=${f.snapshotA}` },
  { group: 'edges', method: 'GET', name: 'GET /edges/:id', path: (f, p) => `${p}/edges/${f.edgeId}` },
  {
    group: 'edges',
    method: 'PUT',
    name: 'PUT /edges/:id',
    path: (f, p) => `${p}/edges/${f.edgeId}`,
    body: () => ({ strength: 0.7 }),
  },
  { group: 'edges', method: 'DELETE', name: 'DELETE /edges/:id', path: (_f, p) => `${p}/edges/${newId('edge')}` },
  { group: 'edges', method: 'PATCH', name: 'PATCH /edges/:id', path: (f, p) => `${p}/edges/${f.edgeId}` },
];

export const routesOf = (group: Group): RouteCase[] => ROUTES.filter((r) => r.group === group);

export async function makeFixture(api: TestApi): Promise<{ fixture: Fixture; owner: TestKey }> {
  const owner = await api.newKey({ plan: 'enterprise', rpm: 1_000_000, burst: 100_000 });
  const a = await api.request('POST', '/v1/snapshots', { key: owner, body: snapshotBody({ name: 'A' }) });
  const b = await api.request('POST', '/v1/snapshots', { key: owner, body: snapshotBody({ name: 'B' }) });
  assert.equal(a.status, 201, JSON.stringify(a.body));
  assert.equal(b.status, 201, JSON.stringify(b.body));
  const edge = await api.request('POST', '/v1/edges', {
    key: owner,
    body: { source_id: a.body.data.id, target_id: b.body.data.id, edge_type: 'elaborates' },
  });
  assert.equal(edge.status, 201, JSON.stringify(edge.body));
  return {
    owner,
    fixture: {
      brainId: owner.brainId,
      snapshotA: a.body.data.id,
      snapshotB: b.body.data.id,
      edgeId: edge.body.data.id,
    },
  };
}

/** A key of the fixture's account (so its routes find the fixture) with the plan's limits. */
export function keyFor(api: TestApi, plan: PlanCase, fixture: Fixture): Promise<TestKey> {
  return api.newKey({ ...plan.key, brainId: fixture.brainId });
}

export function send(api: TestApi, route: RouteCase, key: TestKey | string, f: Fixture, prefix = '/v1') {
  const body = route.body?.(f);
  return api.request(route.method, route.path(f, prefix), { key, ...(body !== undefined ? { body } : {}) });
}

const ceilSeconds = (ms: number) => Math.ceil(ms / 1000);

function header(res: ApiResponse, name: string): string {
  const value = res.headers[name.toLowerCase()];
  assert.ok(value !== undefined, `${name} header missing on a ${res.status} (${JSON.stringify(res.body)})`);
  return String(value);
}

function integerHeader(res: ApiResponse, name: string): number {
  const text = header(res, name);
  assert.match(text, /^\d+$/, `${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

export interface ExpectedHeaders {
  limit: number;
  remaining: number;
  /** Epoch ms at which the minute window is empty again; the header carries it in seconds, rounded up. */
  resetAtMs?: number;
}

/** Design §5.5 headers, plus the IETF draft pair, checked against exact expectations. */
export function assertRateLimitHeaders(res: ApiResponse, expected: ExpectedHeaders, context = ''): void {
  const where = `${context} (status ${res.status})`;
  assert.equal(integerHeader(res, 'X-RateLimit-Limit'), expected.limit, `X-RateLimit-Limit ${where}`);
  assert.equal(integerHeader(res, 'X-RateLimit-Remaining'), expected.remaining, `X-RateLimit-Remaining ${where}`);
  const reset = integerHeader(res, 'X-RateLimit-Reset');
  if (expected.resetAtMs !== undefined) {
    assert.equal(reset, ceilSeconds(expected.resetAtMs), `X-RateLimit-Reset ${where}`);
  }
  const policy = header(res, 'RateLimit-Policy');
  assert.match(policy, new RegExp(`q=${expected.limit};w=60\\b`), `RateLimit-Policy ${where}: ${policy}`);
  const current = header(res, 'RateLimit');
  assert.match(current, new RegExp(`r=${expected.remaining};t=\\d+`), `RateLimit ${where}: ${current}`);
}

/** The 429 of design §4.1/§5.5: code, retry_after twice, Retry-After equal, whole seconds >= 1, Remaining 0. */
export function assertRateLimited(res: ApiResponse, expectedRetryAfter?: number, context = ''): number {
  assert.equal(res.status, 429, `${context}: expected 429, got ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body;
  assert.equal(typeof body, 'object', `${context}: 429 body must be JSON`);
  assert.equal(body.error?.code, 'RATE_LIMITED', context);
  assert.equal(typeof body.error.message, 'string', context);
  assert.ok(body.error.message.length > 0, context);
  assert.match(String(body.request_id), /^req_/, `${context}: request_id`);
  assert.equal(body.request_id, res.headers['x-request-id'], `${context}: request_id equals X-Request-Id`);
  const retryAfterHeader = header(res, 'Retry-After');
  assert.match(retryAfterHeader, /^\d+$/, `${context}: Retry-After is whole seconds`);
  const retryAfter = Number(retryAfterHeader);
  assert.ok(retryAfter >= 1, `${context}: Retry-After >= 1, got ${retryAfter}`);
  assert.equal(body.error.details?.retry_after, retryAfter, `${context}: error.details.retry_after == Retry-After`);
  assert.equal(body.retry_after, retryAfter, `${context}: top-level retry_after == Retry-After`);
  assert.equal(header(res, 'X-RateLimit-Remaining'), '0', `${context}: Remaining is 0 on a 429`);
  if (expectedRetryAfter !== undefined) assert.equal(retryAfter, expectedRetryAfter, `${context}: Retry-After`);
  return retryAfter;
}

export function assertAdmitted(res: ApiResponse, context = ''): void {
  assert.notEqual(res.status, 429, `${context}: refused (${JSON.stringify(res.body)})`);
  assert.ok(res.status < 500, `${context}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.headers['retry-after'], undefined, `${context}: Retry-After only on 429`);
}

export { prng } from '../helpers/prng.js';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until one run of it, from its first request sent to its last answer received,
 * fits within a second, and returns that run's result: the premise of a test of a per-second
 * window in real time. On a busy machine a handful of requests can take longer than a second;
 * the window then rightly rolls and that run proves nothing, so it is made again (with a fresh
 * key: `attempt` makes its own). Assert on the result, not inside `attempt`.
 */
export async function withinASecond<T>(attempt: () => Promise<T>): Promise<T> {
  const giveUpAt = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const startedAt = Date.now();
    const result = await attempt();
    if (Date.now() - startedAt < SECOND) return result;
    if (Date.now() > giveUpAt) throw new Error('no attempt fitted within a second before the hang guard');
  }
}

// ---------------------------------------------------------------------------------------------
// Redis plumbing

export const DEFAULT_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Sends PING over a raw socket: true on +PONG (or an auth error, which still means "up"). */
export function redisReachable(url: string, timeoutMs = HANG_GUARD_MS): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
    socket.connect(Number(port || 6379), hostname || '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/**
 * Redis missing: in CI that is a failure (the shared limits must be tested there); elsewhere the
 * test is skipped with a notice that shows in the report and on stderr.
 */
export function skipOrFailWithoutRedis(
  t: TestContext,
  why: string,
  hint = 'set REDIS_URL, or start Redis on 127.0.0.1:6379',
): void {
  const message = `Redis tests not run: ${why}`;
  if (process.env.CI) assert.fail(`${message} (CI is set: Redis is required here)`);
  console.warn(`WARNING: ${message}; skipping (${hint})`);
  t.skip(message);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await sleep(intervalMs);
  }
}

/** Stops a child we started: SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited (bounded). */
export async function stopChild(child: ChildProcess | undefined, graceMs = 2000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  let kill: NodeJS.Timeout | undefined;
  let giveUp: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    giveUp = setTimeout(resolve, graceMs + 2000);
  });
  clearTimeout(kill);
  clearTimeout(giveUp);
}

export interface OwnRedis {
  port: number;
  url: string;
  child: ChildProcess;
}

/** Our own throw-away redis-server on a free port: nothing persisted, the machine's Redis untouched. */
export async function startOwnRedis(port?: number): Promise<OwnRedis> {
  const p = port ?? (await freePort());
  const child = spawn(
    'redis-server',
    ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`redis-server exited early (${code ?? signal})`)));
  });
  failed.catch(() => undefined);
  const url = `redis://127.0.0.1:${p}`;
  await Promise.race([
    waitFor(`redis-server on ${p}`, async () => ((await redisReachable(url)) ? true : undefined), HANG_GUARD_MS),
    failed,
  ]);
  return { port: p, url, child };
}

/** Whether a binary can be started at all (for redis-server). */
export function canRun(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
