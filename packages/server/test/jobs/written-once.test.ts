import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { JOB_KINDS } from '../../src/background/index.js';
import { isoTime } from '../../src/clock.js';
import type { JobInput } from '../../src/domain/jobs/jobs.js';
import type { JobResponse } from '../../src/domain/jobs/index.js';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import type { JobRecord } from '../../src/store/job-store.js';
import { prose } from '../compute/prose.js';
import { exportText, fillBrain } from '../transfer/support.js';
import { ASYNC, waitForJob } from './support.js';

/**
 * Issue 34: a job's result always names what was written. A runner that commits a job's output
 * and dies before recording the job's result (SIGKILL, a stall past its lease) leaves the job
 * to be run again; the rerun must answer with what the first run wrote, not run the work again
 * (whose dedup would find everything known and answer that nothing was written).
 *
 * The runners that die are simulated with the job store's own claims and the kind's own
 * function, given the job's id and the dying runner's name: exactly what the runner does
 * (domain/jobs/run.ts), minus the result it never got to record. The rerun is the real runner
 * of a second app on the same database.
 */

/** Each kind of job whose work writes snapshots, and what tells which of them are the run's. */
const KINDS = [
  {
    kind: 'crystallize',
    route: '/v1/crystallize',
    body: () => ({ text: prose(4000, 3) }),
    /** The id the result names as the snapshots' origin, and what the API says that origin wrote. */
    origin: (result: any) => result.run_id as string,
    count: (result: any) => result.data.count as number,
    owned: async (api: TestApi, key: TestKey, id: string) =>
      (await api.request('GET', `/v1/crystallize/${id}`, { key })).body.data.snapshot_ids as string[],
  },
  {
    kind: 'ingest',
    route: '/v1/ingest',
    body: () => ({ content: prose(4000, 5), title: 'Notes' }),
    origin: (result: any) => result.data.ingestion_id as string,
    count: (result: any) => result.data.snapshots.length as number,
    owned: undefined,
  },
  {
    kind: 'knowledge.ingest',
    route: '/v1/specific-knowledge/ingest',
    body: () => ({ source_type: 'document', title: 'A handbook', content: prose(4000, 9) }),
    origin: (result: any) => result.data.source_id as string,
    count: (result: any) => result.data.snapshots.length as number,
    owned: async (api: TestApi, key: TestKey, id: string) =>
      (await api.request('GET', `/v1/specific-knowledge/sources/${id}`, { key })).body.data.snapshot_ids as string[],
  },
] as const;

/** Every snapshot of the key's brain, by the API. */
async function allSnapshots(api: TestApi, key: TestKey): Promise<{ id: string; source_id: string | null }[]> {
  const all: { id: string; source_id: string | null }[] = [];
  let cursor = '';
  do {
    const page = await api.request('GET', `/v1/snapshots?limit=100&cursor=${cursor}`, { key });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    all.push(...page.body.data);
    cursor = page.body.next_cursor ?? '';
  } while (cursor);
  return all;
}

/** Claims the job as runner `owner` and runs its kind's work as the runner would. */
async function claimAndRun(api: TestApi, kind: string, jobId: string, owner: string): Promise<JobResponse> {
  const { domain } = api.app;
  await sleep(5); // past the previous claim's lease of 1 ms
  const [job] = await domain.store.jobs.claim(owner, [kind], 1, 1, isoTime(Date.now()));
  assert.equal(job?.id, jobId, `${owner} claims the job`);
  return runClaimed(api, job, owner);
}

/** Runs a claimed job's work as runner `owner`, without recording its outcome. */
function runClaimed(api: TestApi, job: JobRecord, owner: string): Promise<JobResponse> {
  const input = JSON.parse(job.input) as JobInput;
  return (JOB_KINDS[job.kind] as (typeof JOB_KINDS)[string])({
    domain: api.app.domain,
    input: input.body,
    principal: input.principal,
    progress: () => undefined,
    signal: new AbortController().signal,
    job: { id: job.id, owner, written: job.written === null ? undefined : JSON.parse(job.written) },
  });
}

/** A runner of another app on the database finishes the job; returns the job as the API shows it. */
async function rerun(api: TestApi, key: TestKey, jobId: string): Promise<any> {
  const other = await connectTestApi(api.databasePath, { jobs: { leaseMs: 1000, maxAttempts: 5 } });
  try {
    const job = await waitForJob(other.request, key, jobId);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error ?? job));
    return job;
  } finally {
    await other.close();
  }
}

describe("jobs: a job's result names what was written, when its runner died after writing it", () => {
  let api: TestApi;
  let uploads: string;
  before(async () => {
    // No runner of its own: the jobs it queues wait for the runners the tests play.
    uploads = mkdtempSync(join(tmpdir(), 'snapgraph-uploads-'));
    api = await startTestApi({ backgroundWork: false, imports: { maxBytes: 1024 * 1024, dir: uploads } });
  });
  after(async () => {
    await api.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  for (const k of KINDS) {
    it(`${k.kind}: a runner that lost the job writes nothing; the rerun answers with the output of the run that wrote`, async () => {
      const key = await api.newKey();
      const queued = await api.request('POST', k.route, { key, body: k.body(), headers: ASYNC });
      assert.equal(queued.status, 202, JSON.stringify(queued.body));
      const jobId = queued.body.data.job_id as string;
      const { domain } = api.app;

      // Runner A stalls past its lease; runner B claims the job; A's write is then refused whole.
      const [stalled] = await domain.store.jobs.claim('run_stalled', [k.kind], 1, 1, isoTime(Date.now()));
      assert.equal(stalled?.id, jobId);
      const b = claimAndRun(api, k.kind, jobId, 'run_b');
      await assert.rejects(runClaimed(api, stalled, 'run_stalled'), { name: 'JobOutputRefused' });

      // B writes the output, and dies before recording the job's result.
      const first = await b;
      const written = JSON.parse(JSON.stringify(first.body));
      const count = k.count(written);
      assert.ok(count > 0, `the first run wrote ${count} snapshots`);
      const before = await allSnapshots(api, key);
      assert.equal(before.length, count, 'only the run that held the job wrote');

      // A runner of another app takes the job over once B's lease ran out, and finishes it.
      const job = await rerun(api, key, jobId);
      assert.deepEqual(job.result, written, "the job's result is the answer of the run that wrote");
      assert.equal(k.count(job.result), count);

      // The result's id owns every snapshot of the brain: nothing was written twice.
      const origin = k.origin(job.result);
      const after = await allSnapshots(api, key);
      assert.deepEqual(after.map((s) => s.id).sort(), before.map((s) => s.id).sort());
      for (const s of after) assert.equal(s.source_id, origin, 'a snapshot of another run of the job');
      if (k.owned) assert.deepEqual((await k.owned(api, key, origin)).sort(), after.map((s) => s.id).sort());

      // Finished: what the write recorded is cleared, the result holds it.
      const stored = await domain.store.jobs.get(key.accountId, jobId);
      assert.equal(stored?.written, null);
      assert.equal(stored?.attempts, 3);
    });
  }

  it('import: the rerun of an import whose last batch committed answers with its counts, its file gone', async () => {
    const key = await api.newKey();
    const source = await startTestApi({ backgroundWork: false });
    let file: string;
    try {
      const owner = await source.newKey();
      await fillBrain(source, owner);
      file = await exportText(source, owner, owner.brainId);
    } finally {
      await source.close();
    }
    const accepted = await api.request('POST', '/v1/brains/import', {
      key,
      rawBody: file,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const jobId = accepted.body.data.job_id as string;

    // The first run imports everything, removes the upload, and dies before the job's result.
    const first = await claimAndRun(api, 'import', jobId, 'run_b');
    const written = JSON.parse(JSON.stringify(first.body));
    assert.ok(written.counts.snapshot > 0, JSON.stringify(written));
    assert.deepEqual(readdirSync(uploads), [], 'the upload is removed by the run that imported it');

    const job = await rerun(api, key, jobId);
    assert.deepEqual(job.result, written);
    const brain = await api.request('GET', `/v1/brains/${written.brain_id}`, { key });
    assert.equal(brain.status, 200);
    assert.equal(brain.body.data.snapshot_count, written.counts.snapshot);
  });
});
