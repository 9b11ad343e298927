import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { ASYNC, waitForJob } from './support.js';

const TEXT =
  'I believe that small consistent habits compound over the years. The rule I follow is to write every morning before email.';

/** GET /v1/jobs (design §14.3): the caller's jobs, newest first, filtered by status and kind, paged as 1.3. */
describe('GET /v1/jobs', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  const ids: Record<string, string> = {};
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
    other = await api.newKey();
    const queue = async (who: TestKey, url: string, body: unknown, rawBody?: string) => {
      const res = await api.request('POST', url, {
        key: who,
        headers: rawBody === undefined ? ASYNC : { 'content-type': 'application/x-ndjson' },
        ...(rawBody === undefined ? { body } : { rawBody }),
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const id = res.body.data.job_id as string;
      await waitForJob(api.request, who, id);
      return id;
    };
    ids.crystallize = await queue(key, '/v1/crystallize', { text: TEXT });
    ids.ingest = await queue(key, '/v1/ingest', { content: TEXT, title: 'Habits' });
    ids.failed = await queue(key, '/v1/brains/import', undefined, 'not an export\n');
    ids.others = await queue(other, '/v1/crystallize', { text: TEXT });
  });
  after(() => api.close());

  it('lists only the caller’s jobs, newest first, with every field of GET /v1/jobs/:id', async () => {
    const res = await api.request('GET', '/v1/jobs', { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.count, 3);
    assert.deepEqual(
      res.body.data.map((job: { id: string }) => job.id),
      [ids.failed, ids.ingest, ids.crystallize],
    );
    const one = await api.request('GET', `/v1/jobs/${ids.crystallize}`, { key });
    assert.deepEqual(res.body.data[2], one.body.data);
    const theirs = await api.request('GET', '/v1/jobs', { key: other });
    assert.deepEqual(
      theirs.body.data.map((job: { id: string }) => job.id),
      [ids.others],
    );
  });

  it('filters by status and by kind, and count is every match', async () => {
    const failed = await api.request('GET', '/v1/jobs?status=failed', { key });
    assert.deepEqual(
      failed.body.data.map((job: { id: string; kind: string }) => [job.id, job.kind]),
      [[ids.failed, 'import']],
    );
    assert.equal(failed.body.count, 1);
    const succeeded = await api.request('GET', '/v1/jobs?status=succeeded&kind=crystallize', { key });
    assert.deepEqual(
      succeeded.body.data.map((job: { id: string }) => job.id),
      [ids.crystallize],
    );
    const none = await api.request('GET', '/v1/jobs?status=queued', { key });
    assert.deepEqual([none.body.data, none.body.count], [[], 0]);
  });

  it('pages with limit and offset, or a cursor', async () => {
    const first = await api.request('GET', '/v1/jobs?limit=2', { key });
    assert.equal(first.body.data.length, 2);
    assert.equal(first.body.count, 3);
    assert.equal(first.body.next_cursor, undefined, 'no cursor unless asked for');
    const second = await api.request('GET', '/v1/jobs?limit=2&offset=2', { key });
    assert.deepEqual(
      second.body.data.map((job: { id: string }) => job.id),
      [ids.crystallize],
    );
    const cursored = await api.request('GET', '/v1/jobs?limit=2&cursor=', { key });
    assert.equal(typeof cursored.body.next_cursor, 'string');
    const next = await api.request('GET', `/v1/jobs?limit=2&cursor=${cursored.body.next_cursor}`, { key });
    assert.deepEqual(
      next.body.data.map((job: { id: string }) => job.id),
      [ids.crystallize],
    );
    assert.equal(next.body.next_cursor, null);
  });

  it('refuses bad filters and pages with a 400', async () => {
    for (const query of ['status=done', 'limit=0', 'limit=101', 'limit=1.5', 'offset=-1', 'cursor=abc', 'kind=']) {
      const res = await api.request('GET', `/v1/jobs?${query}`, { key });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'BAD_REQUEST');
    }
    assert.equal((await api.request('GET', '/v1/jobs')).status, 401);
  });
});
