import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { prose } from '../compute/prose.js';
import { ASYNC, waitForJob } from './support.js';

/**
 * Issue 34, row 3: with two servers on one database and a lease much shorter than the work,
 * a long crystallize job runs once. Its text is read on the compute pool, so the lease is
 * renewed while it runs; before the job's output is written the lease is renewed again, and a
 * runner that lost it writes nothing; the job's result names what was written.
 */
describe('jobs: a long job under a short lease', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    const jobs = { leaseMs: 1000, maxAttempts: 5 };
    api = await startTestApi({ jobs });
    key = await api.newKey();
  });
  after(() => api.close());

  it('runs once, and its result names the snapshots it wrote', async () => {
    const other = await connectTestApi(api.databasePath, { jobs: { leaseMs: 1000, maxAttempts: 5 } });
    try {
      const queued = await api.request('POST', '/v1/crystallize', {
        key,
        body: { text: prose(99_000, 11) },
        headers: ASYNC,
      });
      assert.equal(queued.status, 202, JSON.stringify(queued.body));
      const job = await waitForJob(api.request, key, queued.body.data.job_id);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error ?? job));
      const result = job.result;
      const runId = result.run_id as string;
      assert.ok(result.data.count > 0, `the job's result says ${result.data.count} snapshots were written`);

      // Every snapshot of the brain was written by the run the result names, and there are as many.
      const ids: string[] = [];
      let cursor = '';
      do {
        const page = await api.request('GET', `/v1/snapshots?limit=100&cursor=${cursor}`, { key });
        assert.equal(page.status, 200);
        for (const s of page.body.data) {
          assert.equal(s.source_id, runId, 'a snapshot written by another run of the job');
          ids.push(s.id);
        }
        cursor = page.body.next_cursor ?? '';
      } while (cursor);
      assert.equal(ids.length, result.data.count);
      const run = await api.request('GET', `/v1/crystallize/${runId}`, { key });
      assert.equal(run.status, 200);
      assert.equal(run.body.data.snapshot_ids.length, result.data.count);
    } finally {
      await other.close();
    }
  });
});
