// Long work as jobs (design §14): Prefer: respond-async → 202 + Location, GET /v1/jobs/:id
// from queued to succeeded or failed, tenancy, validation before queuing, resuming queued
// jobs, shutdown, and two instances on one database running each job once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { runs, testJobRoutes } from './test-kinds.js';
import { ASYNC, JOB_ID, waitForJob } from './support.js';

const JOB_FIELDS = ['created_at', 'error', 'id', 'kind', 'progress', 'result', 'status', 'updated_at'];

describe('jobs: Prefer: respond-async and GET /v1/jobs/:id', () => {
  let api: TestApi;
  let key: TestKey;
  let gates: string;
  before(async () => {
    api = await startTestApi({ extraRoutes: testJobRoutes });
    key = await api.newKey();
    gates = mkdtempSync(join(tmpdir(), 'snapgraph-gates-'));
  });
  after(async () => {
    await api.close();
    rmSync(gates, { recursive: true, force: true });
  });

  it('answers 202 {data: {job_id, status}} with Location, and the job ends with the synchronous body', async () => {
    const sync = await api.request('POST', '/v1/test/work', { key, body: { name: 'same-answer' } });
    assert.equal(sync.status, 200, JSON.stringify(sync.body));

    const queued = await api.request('POST', '/v1/test/work', { key, body: { name: 'same-answer' }, headers: ASYNC });
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    assert.deepEqual(Object.keys(queued.body), ['data']);
    assert.match(queued.body.data.job_id, JOB_ID);
    assert.equal(queued.body.data.status, 'queued');
    assert.equal(queued.headers.location, `/v1/jobs/${queued.body.data.job_id}`);
    assert.equal(queued.headers['preference-applied'], 'respond-async');

    const job = await waitForJob(api.request, key, queued.body.data.job_id);
    assert.deepEqual(Object.keys(job).sort(), JOB_FIELDS);
    assert.equal(job.id, queued.body.data.job_id);
    assert.equal(job.kind, 'test.work');
    assert.equal(job.status, 'succeeded');
    assert.deepEqual(job.result, sync.body);
    assert.equal(job.error, null);
    assert.deepEqual(job.progress, { phase: 'done', done: 3, total: 3 });
    assert.ok(job.updated_at >= job.created_at);
  });

  it('keeps the output of the work: a job that writes a snapshot returns it, and it is stored', async () => {
    const queued = await api.request('POST', '/api/v1/test/work', {
      key,
      body: { name: 'written by a job', write: true },
      headers: { prefer: 'wait=10, Respond-Async' },
    });
    assert.equal(queued.status, 202);
    assert.equal(queued.headers.location, `/api/v1/jobs/${queued.body.data.job_id}`);
    const job = await waitForJob(api.request, key, queued.body.data.job_id);
    assert.equal(job.status, 'succeeded', JSON.stringify(job));
    const snapshot = job.result.data;
    assert.equal(snapshot.name, 'written by a job');
    const read = await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key });
    assert.deepEqual(read.body, { data: snapshot });
  });

  it('a job whose work refuses ends failed with that error body (and the queuing request id)', async () => {
    const queued = await api.request('POST', '/v1/test/work', {
      key,
      body: { name: 'no', fail: 'refuse' },
      headers: ASYNC,
    });
    assert.equal(queued.status, 202);
    const job = await waitForJob(api.request, key, queued.body.data.job_id);
    assert.equal(job.status, 'failed');
    assert.equal(job.result, null);
    assert.deepEqual(job.error, {
      error: { code: 'UNPROCESSABLE', message: 'no cannot be worked on' },
      request_id: queued.headers['x-request-id'],
    });
    assert.equal(job.progress.phase, 'working', 'the progress shows where it stopped');

    const sync = await api.request('POST', '/v1/test/work', { key, body: { name: 'no', fail: 'refuse' } });
    assert.equal(sync.status, 422);
    assert.deepEqual(sync.body.error, job.error.error);
  });

  it('an unexpected error ends the job failed with a 500 INTERNAL body that hides the details', async () => {
    const queued = await api.request('POST', '/v1/test/work', {
      key,
      body: { name: 'boom', fail: 'crash' },
      headers: ASYNC,
    });
    const job = await waitForJob(api.request, key, queued.body.data.job_id);
    assert.equal(job.status, 'failed');
    assert.equal(job.error.error.code, 'INTERNAL');
    assert.doesNotMatch(JSON.stringify(job.error), /passwd|secret|stack/);
  });

  it('shows progress while the job runs', async () => {
    const gate = join(gates, 'progress');
    const queued = await api.request('POST', '/v1/test/work', { key, body: { name: 'slow', gate }, headers: ASYNC });
    const running = await waitForJob(
      api.request,
      key,
      queued.body.data.job_id,
      (job) => job.progress.phase === 'waiting',
    );
    assert.equal(running.status, 'running');
    assert.deepEqual(running.progress, { phase: 'waiting', done: 1, total: 3 });
    assert.equal(running.result, null);
    writeFileSync(gate, '');
    const done = await waitForJob(api.request, key, queued.body.data.job_id);
    assert.equal(done.status, 'succeeded');
  });

  it("another account's job is a 404 NOT_FOUND, exactly like a missing one; no key is a 401", async () => {
    const queued = await api.request('POST', '/v1/test/work', { key, body: { name: 'mine' }, headers: ASYNC });
    const id = queued.body.data.job_id;
    const other = await api.newKey();
    const theirs = await api.request('GET', `/v1/jobs/${id}`, { key: other });
    const missing = await api.request('GET', `/v1/jobs/job_00000000000000000000000000`, { key: other });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.error.code, 'NOT_FOUND');
    assert.deepEqual({ ...theirs.body, request_id: '' }, { ...missing.body, request_id: '' });
    const sameAccount = await api.newKey({ brainId: key.brainId });
    assert.equal((await api.request('GET', `/v1/jobs/${id}`, { key: sameAccount })).status, 200);
    const anonymous = await api.request('GET', `/v1/jobs/${id}`);
    assert.equal(anonymous.status, 401);
  });

  it('answers a body that fails validation at once with a 400, and queues nothing', async () => {
    const before = runs.get('invalid') ?? 0;
    const res = await api.request('POST', '/v1/test/work', {
      key,
      body: { name: 'invalid', extra: 1 },
      headers: ASYNC,
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'BAD_REQUEST');
    assert.equal(res.headers.location, undefined);
    await sleep(200);
    assert.equal(runs.get('invalid') ?? 0, before);
  });

  it('without the preference, the route answers synchronously', async () => {
    const res = await api.request('POST', '/v1/test/work', {
      key,
      body: { name: 'now' },
      headers: { prefer: 'return=minimal' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: { name: 'now', account_id: key.accountId } });
  });
});

describe('jobs: durable in the database', () => {
  let first: TestApi;
  let key: TestKey;
  before(async () => {
    first = await startTestApi({ extraRoutes: testJobRoutes, backgroundWork: false });
    key = await first.newKey();
  });
  after(() => first.close());

  it('a job queued where no runner works waits, and a process with a runner takes it up', async () => {
    const queued = await first.request('POST', '/v1/test/work', { key, body: { name: 'waits' }, headers: ASYNC });
    await sleep(300);
    const waiting = await first.request('GET', `/v1/jobs/${queued.body.data.job_id}`, { key });
    assert.equal(waiting.body.data.status, 'queued');
    assert.deepEqual(waiting.body.data.progress, { phase: 'queued', done: 0, total: 0 });

    const second = await connectTestApi(first.databasePath, { extraRoutes: testJobRoutes });
    try {
      const job = await waitForJob(second.request, key, queued.body.data.job_id);
      assert.equal(job.status, 'succeeded');
    } finally {
      await second.close();
    }
  });

  it('on shutdown a running job goes back to the queue, and runs to its end on the next start', async () => {
    const gates = mkdtempSync(join(tmpdir(), 'snapgraph-gates-'));
    const gate = join(gates, 'shutdown');
    try {
      const runner = await connectTestApi(first.databasePath, { extraRoutes: testJobRoutes });
      const queued = await first.request('POST', '/v1/test/work', {
        key,
        body: { name: 'interrupted', gate, write: true },
        headers: ASYNC,
      });
      const id = queued.body.data.job_id;
      await waitForJob(runner.request, key, id, (job) => job.status === 'running');
      await runner.close();
      const requeued = await first.request('GET', `/v1/jobs/${id}`, { key });
      assert.equal(requeued.body.data.status, 'queued');

      writeFileSync(gate, '');
      const next = await connectTestApi(first.databasePath, { extraRoutes: testJobRoutes });
      try {
        const job = await waitForJob(next.request, key, id);
        assert.equal(job.status, 'succeeded', JSON.stringify(job));
        const list = await next.request('GET', '/v1/snapshots?limit=100', { key });
        assert.equal(list.body.data.filter((s: any) => s.name === 'interrupted').length, 1);
      } finally {
        await next.close();
      }
    } finally {
      rmSync(gates, { recursive: true, force: true });
    }
  });
});

describe('jobs: two instances on one database', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ extraRoutes: testJobRoutes });
    key = await api.newKey();
  });
  after(() => api.close());

  it('run each job once, whichever instance queued it', async () => {
    const other = await connectTestApi(api.databasePath, { extraRoutes: testJobRoutes });
    try {
      const names = Array.from({ length: 16 }, (_, i) => `once-${i}`);
      const ids = await Promise.all(
        names.map(async (name, i) => {
          const via = i % 2 === 0 ? api : other;
          const res = await via.request('POST', '/v1/test/work', { key, body: { name }, headers: ASYNC });
          assert.equal(res.status, 202);
          return res.body.data.job_id as string;
        }),
      );
      for (const id of ids) assert.equal((await waitForJob(api.request, key, id)).status, 'succeeded');
      await sleep(300); // a second run, were there one, would have started by now
      assert.deepEqual(
        names.map((name) => runs.get(name)),
        names.map(() => 1),
      );
    } finally {
      await other.close();
    }
  });
});

describe('jobs: rate limits', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ extraRoutes: testJobRoutes, rateLimits: true });
  });
  after(() => api.close());

  it('GET /v1/jobs/:id counts in snapshots_read', async () => {
    const key = await api.newKey({ plan: 'free' });
    const res = await api.request('GET', '/v1/jobs/job_00000000000000000000000000', { key });
    assert.equal(res.status, 404);
    assert.equal(res.headers['x-ratelimit-limit'], '60');
    const again = await api.request('GET', '/v1/snapshots?limit=1', { key });
    assert.equal(Number(again.headers['x-ratelimit-remaining']), Number(res.headers['x-ratelimit-remaining']) - 1);
  });
});
