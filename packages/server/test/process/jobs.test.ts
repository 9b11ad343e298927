// Jobs across restarts (design §14): a queued job is run by the next start; a job whose process
// was killed (SIGKILL) in the middle is run again once its lease runs out, leaving its output
// once; past JOB_MAX_ATTEMPTS it fails with a clear error body.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKeyViaCli,
  SERVER_ROOT,
  startServer,
  stopAllServers,
  makeWorkspace,
  type CreatedKey,
  type Workspace,
} from './helpers/process-harness.js';
import { ASYNC, waitForJob } from '../jobs/support.js';

const JOB_SERVER = ['--import', 'tsx', join(SERVER_ROOT, 'test', 'process', 'helpers', 'job-server.ts')];
/**
 * A lease short enough that a killed runner's job is claimed again soon, long enough that a
 * runner alive on a busy machine renews it in time: the test kind's snapshot is written by
 * store.snapshots, outside the lease fence that guards the real kinds' output
 * (domain/jobs/fence.ts), so a lease lost to a stall of 500 ms (CI at load 15, PostgreSQL) ran
 * the work twice and wrote it twice.
 */
const FAST_LEASE = { JOB_LEASE_MS: '2000' };

function startJobServer(workspace: Workspace, env: Record<string, string> = {}) {
  return startServer(workspace.databasePath, { args: JOB_SERVER, env });
}

/** GET/POST through a running server, shaped like the in-process harness's requests. */
const via =
  (baseUrl: string) =>
  (method: string, url: string, options: any = {}) =>
    call(baseUrl, method, url, { key: options.key?.key ?? options.key, body: options.body, headers: options.headers });

describe('jobs across restarts', () => {
  let workspace: Workspace;
  let key: CreatedKey;
  before(async () => {
    workspace = await makeWorkspace('jobs');
    key = await createKeyViaCli(workspace.databasePath);
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  it('a queued job is run by the next start', async () => {
    const idle = await startJobServer(workspace, { BACKGROUND_WORK: 'false' });
    const queued = await call(idle.baseUrl, 'POST', '/v1/test/work', {
      key: key.key,
      body: { name: 'queued before a restart', write: true },
      headers: ASYNC,
    });
    assert.equal(queued.status, 202, queued.text);
    idle.child.kill('SIGKILL');
    await idle.exited;

    const next = await startJobServer(workspace);
    const job = await waitForJob(via(next.baseUrl), key.key, queued.body.data.job_id);
    assert.equal(job.status, 'succeeded', JSON.stringify(job));
    assert.equal(job.result.data.name, 'queued before a restart');
    await next.stop();
  });

  it('a job killed mid-run (SIGKILL) is run again after its lease, and its output is there once', async () => {
    const gate = join(workspace.dir, 'gate-rerun');
    const first = await startJobServer(workspace, FAST_LEASE);
    const queued = await call(first.baseUrl, 'POST', '/v1/test/work', {
      key: key.key,
      body: { name: 'killed mid-run', gate, write: true },
      headers: ASYNC,
    });
    const id = queued.body.data.job_id;
    const running = await waitForJob(via(first.baseUrl), key.key, id, (job) => job.progress.phase === 'waiting');
    assert.equal(running.status, 'running');
    first.child.kill('SIGKILL');
    await first.exited;

    writeFileSync(gate, '');
    const second = await startJobServer(workspace, FAST_LEASE);
    const job = await waitForJob(via(second.baseUrl), key.key, id);
    assert.equal(job.status, 'succeeded', JSON.stringify(job));
    const list = await call(second.baseUrl, 'GET', '/v1/snapshots?limit=100', { key: key.key });
    assert.deepEqual(
      list.body.data.filter((s: any) => s.name === 'killed mid-run').map((s: any) => s.id),
      [job.result.data.id],
    );
    await second.stop();
  });

  it('past JOB_MAX_ATTEMPTS a job whose process keeps dying fails cleanly, with an error body saying so', async () => {
    const env = { ...FAST_LEASE, JOB_MAX_ATTEMPTS: '1' };
    const first = await startJobServer(workspace, env);
    const queued = await call(first.baseUrl, 'POST', '/v1/test/work', {
      key: key.key,
      body: { name: 'never finishes', gate: join(workspace.dir, 'never'), write: true },
      headers: ASYNC,
    });
    const id = queued.body.data.job_id;
    await waitForJob(via(first.baseUrl), key.key, id, (job) => job.status === 'running');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startJobServer(workspace, env);
    const job = await waitForJob(via(second.baseUrl), key.key, id);
    assert.equal(job.status, 'failed');
    assert.equal(job.result, null);
    assert.equal(job.error.error.code, 'INTERNAL');
    assert.match(job.error.error.message, /interrupted 1 time \(.*not completed/);
    assert.equal(job.error.request_id, queued.headers.get('x-request-id'));
    const list = await call(second.baseUrl, 'GET', '/v1/snapshots?limit=100', { key: key.key });
    assert.equal(list.body.data.filter((s: any) => s.name === 'never finishes').length, 0);
    await second.stop();
  });
});
