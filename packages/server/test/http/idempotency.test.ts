// Idempotency-Key on every POST (design §3.8): the same key and body within 24 hours replay the
// first response without doing the work again; another body is a 409; keys are per account.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { manualClock, snapshotBody, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { runs, testJobRoutes } from '../jobs/test-kinds.js';
import { ASYNC, waitForJob } from '../jobs/support.js';

const withKey = (key: string, extra: Record<string, string> = {}) => ({ 'idempotency-key': key, ...extra });

describe('Idempotency-Key on POST', () => {
  const clock = manualClock();
  let api: TestApi;
  let key: TestKey;
  let gates: string;
  before(async () => {
    api = await startTestApi({ clock, extraRoutes: testJobRoutes });
    key = await api.newKey();
    gates = mkdtempSync(join(tmpdir(), 'snapgraph-gates-'));
  });
  after(async () => {
    await api.close();
    rmSync(gates, { recursive: true, force: true });
  });

  async function snapshotsNamed(k: TestKey, name: string): Promise<number> {
    const list = await api.request('GET', '/v1/snapshots?limit=100', { key: k });
    return list.body.data.filter((s: any) => s.name === name).length;
  }

  it('replays the first response (status, body, Location, Content-Type) and does the work once', async () => {
    const body = snapshotBody({ name: 'Once only' });
    const first = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('create-1') });
    assert.equal(first.status, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('create-1') });
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.location, first.headers.location);
    assert.equal(again.headers['content-type'], first.headers['content-type']);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.notEqual(again.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal(await snapshotsNamed(key, 'Once only'), 1);
  });

  it('counts the same body the same whatever its field order and spacing, and /api/v1 as /v1', async () => {
    const first = await api.request('POST', '/v1/snapshots', {
      key,
      rawBody: '{"name":"Order","core":"fields in any order"}',
      headers: withKey('order', { 'content-type': 'application/json' }),
    });
    const again = await api.request('POST', '/api/v1/snapshots', {
      key,
      rawBody: '{ "core": "fields in any order",\n  "name": "Order" }',
      headers: withKey('order', { 'content-type': 'application/json' }),
    });
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.equal(await snapshotsNamed(key, 'Order'), 1);
  });

  it('counts POST /v1/memories/remember as POST /v1/memories, the same route under its alias', async () => {
    const body = { content: 'Remembered once, under either name' };
    const first = await api.request('POST', '/v1/memories/remember', { key, body, headers: withKey('alias') });
    assert.equal(first.status, 201);
    const again = await api.request('POST', '/api/v1/memories', { key, body, headers: withKey('alias') });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.deepEqual(again.body, first.body);
    const listed = await api.request('GET', '/v1/memories?limit=100', { key });
    assert.equal(listed.body.data.filter((m: { content: string }) => m.content === body.content).length, 1);
  });

  it('counts POST /v1/memories/:id/promote as its crystallize, the same route under its alias', async () => {
    const memory = await api.request('POST', '/v1/memories', {
      key,
      body: { content: 'Teams that write the test before the fix ship fewer regressions.' },
    });
    assert.equal(memory.status, 201);
    const id = memory.body.data.id as string;
    const first = await api.request('POST', `/v1/memories/${id}/crystallize`, {
      key,
      body: {},
      headers: withKey('promote'),
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await api.request('POST', `/api/v1/memories/${id}/promote`, {
      key,
      body: {},
      headers: withKey('promote'),
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body, first.body);
  });

  it('answers 409 CONFLICT naming the header when the key comes with another body or path', async () => {
    await api.request('POST', '/v1/snapshots', { key, body: snapshotBody({ name: 'A' }), headers: withKey('reused') });
    const otherBody = await api.request('POST', '/v1/snapshots', {
      key,
      body: snapshotBody({ name: 'B' }),
      headers: withKey('reused'),
    });
    assert.equal(otherBody.status, 409);
    assert.equal(otherBody.body.error.code, 'CONFLICT');
    assert.equal(otherBody.body.error.details.field, 'Idempotency-Key');
    assert.match(otherBody.body.error.message, /another request/);
    assert.equal(await snapshotsNamed(key, 'B'), 0);
    const otherPath = await api.request('POST', '/v1/brains', { key, body: { name: 'A' }, headers: withKey('reused') });
    assert.equal(otherPath.status, 409);
  });

  it('scopes keys to the account: another account with the same key does its own work and never sees the first', async () => {
    const body = snapshotBody({ name: 'Per account' });
    const mine = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('shared-key') });
    const other = await api.newKey();
    const theirs = await api.request('POST', '/v1/snapshots', { key: other, body, headers: withKey('shared-key') });
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
    assert.notEqual(theirs.body.data.id, mine.body.data.id);
    assert.equal(theirs.body.data.brain_id, other.brainId);
    // Another key of the same account shares the account's keys.
    const sibling = await api.newKey({ brainId: key.brainId });
    const replay = await api.request('POST', '/v1/snapshots', { key: sibling, body, headers: withKey('shared-key') });
    assert.deepEqual(replay.body, mine.body);
  });

  it('keeps the route’s own errors (a 404) and replays them; validation 400s are answered afresh, not kept', async () => {
    const edge = { source_id: 'snap_00000000000000000000000000', target_id: 'snap_00000000000000000000000001' };
    const body = { ...edge, edge_type: 'supports' };
    const missing = await api.request('POST', '/v1/edges', { key, body, headers: withKey('edge-404') });
    assert.equal(missing.status, 404);
    const replay = await api.request('POST', '/v1/edges', { key, body, headers: withKey('edge-404') });
    assert.equal(replay.status, 404);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.body, missing.body);

    const invalid = await api.request('POST', '/v1/snapshots', {
      key,
      body: { name: 'x' },
      headers: withKey('fix-it'),
    });
    assert.equal(invalid.status, 400);
    const fixed = await api.request('POST', '/v1/snapshots', {
      key,
      body: snapshotBody({ name: 'Fixed' }),
      headers: withKey('fix-it'),
    });
    assert.equal(fixed.status, 201, 'the key was not used up by the 400');
  });

  it('does not keep a 5xx: the same request with the key is tried again', async () => {
    const body = { name: 'flaky', fail: 'crash' };
    const first = await api.request('POST', '/v1/test/work', { key, body, headers: withKey('flaky') });
    assert.equal(first.status, 500);
    const again = await api.request('POST', '/v1/test/work', { key, body, headers: withKey('flaky') });
    assert.equal(again.status, 500);
    assert.equal(again.headers['idempotent-replayed'], undefined);
    assert.equal(runs.get('flaky'), 2);
  });

  it('answers 409 while the first request with the key is still being answered', async () => {
    const gate = join(gates, 'in-flight');
    const body = { name: 'in flight', gate };
    const first = api.request('POST', '/v1/test/work', { key, body, headers: withKey('in-flight') });
    while ((runs.get('in flight') ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const during = await api.request('POST', '/v1/test/work', { key, body, headers: withKey('in-flight') });
    assert.equal(during.status, 409);
    assert.equal(during.body.error.code, 'CONFLICT');
    assert.match(during.body.error.message, /still being answered/);
    writeFileSync(gate, '');
    assert.equal((await first).status, 200);
    const afterwards = await api.request('POST', '/v1/test/work', { key, body, headers: withKey('in-flight') });
    assert.equal(afterwards.status, 200);
    assert.equal(afterwards.headers['idempotent-replayed'], 'true');
    assert.equal(runs.get('in flight'), 1);
  });

  it('keeps the 202 of a job: the same request again names the same job, queued once', async () => {
    const body = { name: 'one job' };
    const first = await api.request('POST', '/v1/test/work', { key, body, headers: withKey('job-1', ASYNC) });
    assert.equal(first.status, 202);
    const again = await api.request('POST', '/v1/test/work', { key, body, headers: withKey('job-1', ASYNC) });
    assert.equal(again.status, 202);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.location, first.headers.location);
    assert.equal((await waitForJob(api.request, key, first.body.data.job_id)).status, 'succeeded');
    assert.equal(runs.get('one job'), 1);
  });

  it('forgets a key after 24 hours', async () => {
    const body = snapshotBody({ name: 'Next day' });
    const first = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('daily') });
    clock.advance(24 * 60 * 60_000 - 1);
    const sameDay = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('daily') });
    assert.deepEqual(sameDay.body, first.body);
    clock.advance(2);
    const nextDay = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('daily') });
    assert.equal(nextDay.status, 201);
    assert.notEqual(nextDay.body.data.id, first.body.data.id);
    assert.equal(nextDay.headers['idempotent-replayed'], undefined);
  });

  it('refuses a key that is empty, longer than 255 characters or not printable ASCII with a 400', async () => {
    for (const bad of ['', 'k'.repeat(256), 'clé']) {
      const res = await api.request('POST', '/v1/snapshots', { key, body: snapshotBody(), headers: withKey(bad) });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.error.code, 'BAD_REQUEST');
      assert.equal(res.body.error.details.field, 'Idempotency-Key');
    }
    const longest = await api.request('POST', '/v1/snapshots', {
      key,
      body: snapshotBody(),
      headers: withKey('k'.repeat(255)),
    });
    assert.equal(longest.status, 201);
  });
});

describe('Idempotency-Key and the order of checks', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ rateLimits: true });
  });
  after(() => api.close());

  it('checks the key after authentication and the rate limit: a replay counts against the limit', async () => {
    const key = await api.newKey({ plan: 'free' });
    const body = snapshotBody({ name: 'Limited' });
    const first = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('limited') });
    const again = await api.request('POST', '/v1/snapshots', { key, body, headers: withKey('limited') });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(Number(again.headers['x-ratelimit-remaining']), Number(first.headers['x-ratelimit-remaining']) - 1);
    const anonymous = await api.request('POST', '/v1/snapshots', { body, headers: withKey('limited') });
    assert.equal(anonymous.status, 401);
  });
});
