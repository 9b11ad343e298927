// POST /v1/brains/import killed with SIGKILL in the middle of writing (design §15.3): after a
// restart on the same database the job finishes what it began — every record there once, none
// half-written, no second brain — and the uploaded file is gone.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  call,
  startServer,
  suiteWorkspaces,
  unlimitedKey,
  waitFor,
  type ServerProcess,
} from './helpers/process-harness.js';
import { TEXT_FIELDS } from '../snapshots/fixtures.js';

const SNAPSHOTS = 60_000;
const BRAIN_ID = 'brain_01KILLED0IMPORT0TEST00000';

/** An export file of one brain with many snapshots, written by hand in the export format. */
function bigExport(accountId: string): string {
  const time = '2026-01-02T03:04:05.006Z';
  const lines = [
    JSON.stringify({
      format: 'snapgraph-export',
      version: 1,
      exported_at: time,
      brain_id: BRAIN_ID,
      sections: ['brain', 'snapshot'],
    }),
    JSON.stringify({
      kind: 'brain',
      data: {
        id: BRAIN_ID,
        account_id: accountId,
        name: 'Killed',
        auto_link: false,
        created_at: time,
        updated_at: time,
      },
    }),
  ];
  for (let i = 0; i < SNAPSHOTS; i++) {
    const id = `snap_01KILLED${String(i).padStart(18, '0')}`;
    const data = {
      id,
      brain_id: BRAIN_ID,
      name: `Snapshot ${i}`,
      core: `Record ${i} of an import that is killed halfway and resumed`,
      type: 'Belief',
      ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, null])),
      emotion: null,
      confidence: 0.5,
      significance_score: 0.5,
      tags: [],
      source_type: 'api',
      source_id: null,
      created_at: time,
      updated_at: time,
    };
    lines.push(JSON.stringify({ kind: 'snapshot', data }));
  }
  lines.push(JSON.stringify({ kind: 'end', counts: { brain: 1, snapshot: SNAPSHOTS } }));
  return `${lines.join('\n')}\n`;
}

describe('import over HTTP: SIGKILL while it writes', () => {
  const fresh = suiteWorkspaces();

  it('resumes after a restart: every record once, nothing half-written, the upload removed', async () => {
    const workspace = await fresh('import-kill');
    const uploads = join(workspace.dir, 'uploads');
    const env = { IMPORT_DIR: uploads, JOB_LEASE_MS: '1000' };
    const first: ServerProcess = await startServer(workspace.databasePath, { env });
    const key = await unlimitedKey(workspace.databasePath);
    const file = bigExport(key.account_id);
    const accepted = await fetch(`${first.baseUrl}/v1/brains/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/x-ndjson' },
      body: file,
    });
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const jobId = ((await accepted.json()) as { data: { job_id: string } }).data.job_id;

    // Killed once a batch is written and before the last.
    let atKill: any;
    await waitFor('the import to be writing', async () => {
      atKill = (await call(first.baseUrl, 'GET', `/v1/jobs/${jobId}`, { key: key.key })).body.data;
      if (atKill.status === 'failed' || atKill.status === 'succeeded') {
        assert.fail(`the import ended before it could be killed: ${JSON.stringify(atKill)}`);
      }
      return atKill.status !== 'queued' && atKill.progress.phase === 'import' && atKill.progress.done > 0;
    });
    await first.stop('SIGKILL');
    assert.equal(atKill.status, 'running', 'killed in the middle of the import, not after it');
    assert.ok(atKill.progress.done < SNAPSHOTS, JSON.stringify(atKill.progress));

    const second = await startServer(workspace.databasePath, { env });
    const done = await (async () => {
      let job: any;
      await waitFor('the import to finish after the restart', async () => {
        job = (await call(second.baseUrl, 'GET', `/v1/jobs/${jobId}`, { key: key.key })).body.data;
        return job.status === 'succeeded' || job.status === 'failed';
      });
      return job;
    })();
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.equal(done.result.brain_id, BRAIN_ID, 'the run that began with the file’s ids resumed with them');
    assert.equal(done.result.counts.snapshot, SNAPSHOTS);
    const brain = await call(second.baseUrl, 'GET', `/v1/brains/${BRAIN_ID}`, { key: key.key });
    assert.equal(brain.status, 200);
    assert.equal(brain.body.data.snapshot_count, SNAPSHOTS);
    const brains = await call(second.baseUrl, 'GET', '/v1/brains', { key: key.key });
    assert.equal(brains.body.data.length, 2, 'the key’s brain and the imported one: no second copy');
    const last = await call(
      second.baseUrl,
      'GET',
      `/v1/snapshots/snap_01KILLED${String(SNAPSHOTS - 1).padStart(18, '0')}`,
      {
        key: key.key,
      },
    );
    assert.equal(last.status, 200);
    await waitFor('the upload to be removed', () => readdirSync(uploads).length === 0);
    await second.stop();
  });
});
