import assert from 'node:assert/strict';
import { openAsBlob } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SnapgraphClient, SnapgraphError, type ImportResult } from '../src/index.js';
import { clientSuite } from './live-server.js';

/** Design §12.4 through the client: brains.import, jobs.list, memories.promote on /promote. */
describe('client: import, the jobs list, promote', () => {
  const suite = clientSuite();

  /** An export of a small brain of a fresh key, as NDJSON text. */
  async function exportOfNewBrain(): Promise<{ text: string; brainId: string }> {
    const key = await suite.server.newKey();
    const owner = new SnapgraphClient({ baseUrl: suite.server.baseUrl, apiKey: key.key });
    const a = await owner.snapshots.create({ name: 'Tests first', core: 'A failing test before the fix' });
    const b = await owner.snapshots.create({ name: 'Small changes', core: 'Small pull requests are reviewed better' });
    await owner.edges.create({ source_id: a.id, target_id: b.id, edge_type: 'supports' });
    const lines: string[] = [];
    for await (const line of owner.brains.export(key.brainId)) lines.push(JSON.stringify(line));
    return { text: `${lines.join('\n')}\n`, brainId: key.brainId };
  }

  it('imports a file as a job, from text or from a Blob read off disk, and lists the jobs', async () => {
    const { sg } = suite;
    const { text } = await exportOfNewBrain();
    const accepted = await sg.brains.import(text);
    assert.match(accepted.job_id, /^job_/);
    assert.equal(accepted.kind, 'import');
    const done = await sg.waitForJob<ImportResult>(accepted.job_id, { pollMs: 20 });
    assert.equal(done.result.counts.snapshot, 2);
    assert.equal(done.result.counts.edge, 1);
    const brain = await sg.brains.get(done.result.brain_id);
    assert.equal(brain.snapshot_count, 2);

    const dir = mkdtempSync(join(tmpdir(), 'snapgraph-client-import-'));
    try {
      const file = join(dir, 'brain.jsonl');
      writeFileSync(file, text);
      const mine = (await sg.brains.list()).data[0]!.id;
      const into = await sg.brains.import(await openAsBlob(file), { brainId: mine });
      const joined = await sg.waitForJob<ImportResult>(into.job_id, { pollMs: 20 });
      assert.equal(joined.result.brain_id, mine);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const page = await sg.jobs.list({ kind: 'import' });
    assert.equal(page.count, 2);
    assert.deepEqual(
      page.data.map((job) => job.id),
      [into_id(page.data), accepted.job_id],
    );
    const all: string[] = [];
    for await (const job of sg.jobs.iterate({ status: 'succeeded', limit: 1 })) all.push(job.id);
    assert.equal(all.length, 2);
  });

  it('a file with bad lines: the wait rejects with the lines named, nothing imported', async () => {
    const { sg } = suite;
    const before = (await sg.brains.list()).count;
    const accepted = await sg.brains.import('{"format":"something else"}\nnot json\n');
    await assert.rejects(sg.waitForJob(accepted.job_id, { pollMs: 20 }), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.code, 'BAD_REQUEST');
      assert.equal(err.lines?.[0]?.line, 1, JSON.stringify(err.lines));
      assert.match(err.lines?.[0]?.reason ?? '', /not a Snapgraph export/);
      return true;
    });
    assert.equal((await sg.brains.list()).count, before);
    await assert.rejects(sg.brains.import('x', { brainId: 'brain_01JDQ8YF3K2M4N6P8Q0R2S4T6V' }), /not found/);
  });

  it('promotes a memory through /v1/memories/{id}/promote', async () => {
    const { sg, calls } = suite;
    const memory = await sg.memories.create({ content: 'We decided to release on Tuesdays so support is staffed.' });
    const promoted = await sg.memories.promote(memory.id);
    assert.ok(promoted.snapshots.length >= 1);
    assert.ok(calls.some((call) => call === `POST ${suite.server.baseUrl}/v1/memories/${memory.id}/promote`));
  });
});

/** The newest job of the page (the second import). */
const into_id = (jobs: { id: string }[]) => jobs[0]!.id;
