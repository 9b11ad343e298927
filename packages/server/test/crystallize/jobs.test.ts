import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { ASYNC, JOB_ID, waitForJob } from '../jobs/support.js';
import { NOTES } from './fixtures.js';

/** Design §14: crystallize and knowledge ingestion as jobs, with `Prefer: respond-async`. */
describe('crystallize and ingestion as jobs', () => {
  let llm: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    llm = await startFakeOpenAI();
    api = await startTestApi();
    key = await api.newKey();
  });
  after(async () => {
    await api.close();
    await llm.close();
  });

  it('POST /v1/crystallize: 202, then the job succeeds with the synchronous body as its result', async () => {
    const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'jobs' } });
    const queued = await api.request('POST', '/v1/crystallize', {
      key,
      headers: ASYNC,
      body: { text: NOTES, brain_id: brain.body.data.id },
    });
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    assert.match(queued.body.data.job_id, JOB_ID);
    assert.equal(queued.body.data.status, 'queued');
    assert.equal(queued.headers.location, `/v1/jobs/${queued.body.data.job_id}`);

    const job = await waitForJob(api.request, key, queued.body.data.job_id);
    assert.equal(job.kind, 'crystallize');
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.match(job.result.run_id, /^cry_/);
    assert.ok(job.result.data.count >= 1);
    const run = await api.request('GET', `/v1/crystallize/${job.result.run_id}`, { key });
    assert.deepEqual(
      run.body.data.snapshot_ids,
      job.result.data.snapshots.map((s: { id: string }) => s.id),
    );
    for (const snapshot of job.result.data.snapshots) {
      assert.equal((await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key })).status, 200);
    }
  });

  it('answers a bad body at once with 400, never queued', async () => {
    const res = await api.request('POST', '/v1/crystallize', { key, headers: ASYNC, body: { text: 'short' } });
    assert.equal(res.status, 400);
    const ingest = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      headers: ASYNC,
      body: { source_type: 'manual', title: 'x' },
    });
    assert.equal(ingest.status, 400, 'content is required for manual');
  });

  it("answers a brain that is not the caller's at once with 404, never queued", async () => {
    const other = await api.newKey();
    const theirs = await api.request('POST', '/v1/brains', { key: other, body: { name: 'theirs' } });
    const brains = ['brain_00000000000000000000000000', theirs.body.data.id];
    const routes: [string, Record<string, unknown>][] = [
      ['/v1/crystallize', { text: NOTES }],
      ['/v1/specific-knowledge/ingest', { source_type: 'manual', title: 'x', content: NOTES }],
      ['/v1/ingest', { content: NOTES }],
    ];
    for (const brain_id of brains) {
      for (const [path, body] of routes) {
        const res = await api.request('POST', path, { key, headers: ASYNC, body: { ...body, brain_id } });
        assert.equal(res.status, 404, `${path} ${brain_id}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'NOT_FOUND');
        assert.equal(res.headers.location, undefined, 'no job to follow');
      }
    }
  });

  it('a knowledge ingest that cannot be done here (no content, no LLM) is a 422 at once, never queued', async () => {
    const res = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      headers: ASYNC,
      body: { source_type: 'book', title: 'Thinking in Systems' },
    });
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'UNPROCESSABLE');
    assert.equal(res.body.error.details.field, 'content');
    assert.equal(res.headers.location, undefined, 'no job to follow');
    // 404 before 422: a foreign brain is named first.
    const foreign = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      headers: ASYNC,
      body: { source_type: 'book', title: 'x', brain_id: 'brain_00000000000000000000000000' },
    });
    assert.equal(foreign.status, 404);
  });

  it('POST /v1/specific-knowledge/ingest: 202, then the source and its entries', async () => {
    const queued = await api.request('POST', '/api/v1/specific-knowledge/ingest', {
      key,
      headers: ASYNC,
      body: { source_type: 'manual', title: 'Async notes', content: NOTES },
    });
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    assert.equal(queued.headers.location, `/api/v1/jobs/${queued.body.data.job_id}`);
    const job = await waitForJob(api.request, key, queued.body.data.job_id);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    const source = await api.request('GET', `/v1/specific-knowledge/sources/${job.result.data.source_id}`, { key });
    assert.equal(source.status, 200);
    assert.equal(source.body.data.entries_count, job.result.data.entries_count);
  });

  it('a running job shows its phase from the start: extract while the model answers', async () => {
    const withLlm = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: undefined, model: 'fake', timeoutMs: 5_000, contextTokens: 4096 },
    });
    try {
      const own = await withLlm.newKey();
      llm.script('chat', behave.delay(1_500, behave.status(400, { message: 'no such model' })));
      const queued = await withLlm.request('POST', '/v1/crystallize', {
        key: own,
        headers: ASYNC,
        body: { text: NOTES },
      });
      assert.equal(queued.status, 202);
      // The model answers after 1.5 s: until then the job is running and in its first phase.
      const started = await waitForJob(
        withLlm.request,
        own,
        queued.body.data.job_id,
        (job) => job.status !== 'queued' && (job.status !== 'running' || job.progress.phase !== 'queued'),
      );
      assert.equal(started.status, 'running');
      assert.deepEqual(started.progress, { phase: 'extract', done: 0, total: 0 });
      await waitForJob(withLlm.request, own, queued.body.data.job_id);
    } finally {
      await withLlm.close();
    }
  });

  it('a provider failure fails the job with the error body, and writes nothing', async () => {
    const withLlm = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: undefined, model: 'fake', timeoutMs: 2_000, contextTokens: 4096 },
    });
    try {
      const own = await withLlm.newKey();
      llm.script('chat', behave.status(400, { message: 'no such model' }));
      const queued = await withLlm.request('POST', '/v1/crystallize', {
        key: own,
        headers: ASYNC,
        body: { text: NOTES },
      });
      assert.equal(queued.status, 202);
      const job = await waitForJob(withLlm.request, own, queued.body.data.job_id);
      assert.equal(job.status, 'failed');
      assert.equal(job.result, null);
      assert.equal(job.error.error.code, 'PROVIDER_ERROR');
      const brain = await withLlm.request('GET', `/v1/brains/${own.brainId}`, { key: own });
      assert.equal(brain.body.data.snapshot_count, 0);
    } finally {
      await withLlm.close();
    }
  });
});
