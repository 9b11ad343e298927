import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importFile, ImportRejected, importSource } from '../../src/domain/transfer/index.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { waitForJob } from '../jobs/support.js';
import { exportText, fillBrain, parseLines, writeFile } from './support.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };

/**
 * Issue 46: every id a record of an imported file points to names a record of the same file, or
 * the line is refused — never a write into another account's source, snapshot or memory, and
 * never a 500 for an id that names nothing.
 */
describe('import: references must name records of the same file', () => {
  let source: TestApi;
  let server: TestApi;
  let victim: TestKey;
  let victimSnapshots: string[];
  let victimSourceId: string;
  let lines: { kind?: string; data?: Record<string, unknown>; [k: string]: unknown }[];
  before(async () => {
    // The file is made on another server, so every id in it is free on `server`.
    source = await startTestApi({ backgroundWork: false });
    const author = await source.newKey();
    await fillBrain(source, author);
    lines = parseLines(await exportText(source, author, author.brainId));
    server = await startTestApi();
    victim = await server.newKey();
    victimSnapshots = (await fillBrain(server, victim)).snapshots;
    const sources = await server.request('GET', `/v1/specific-knowledge/sources?brain_id=${victim.brainId}`, {
      key: victim,
    });
    assert.equal(sources.status, 200, JSON.stringify(sources.body));
    victimSourceId = sources.body.data[0].id;
  });
  after(async () => {
    await source.close();
    await server.close();
  });

  /** The exported file with one field of the first record of `kind` changed; its line number too. */
  function tampered(kind: string, field: string, value: unknown): { text: string; line: number } {
    const copy = lines.map((line) => structuredClone(line));
    const index = copy.findIndex((line) => line.kind === kind);
    assert.ok(index > 0, `the export has a ${kind} record`);
    (copy[index]!.data as Record<string, unknown>)[field] = value;
    return { text: `${copy.map((line) => JSON.stringify(line)).join('\n')}\n`, line: index + 1 };
  }

  async function importJob(key: TestKey, text: string) {
    const accepted = await server.request('POST', '/v1/brains/import', { key, rawBody: text, headers: NDJSON });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    return waitForJob(server.request, key, accepted.body.data.job_id);
  }

  const cases: [string, string, string, () => unknown, RegExp][] = [
    [
      'a knowledge entry in another account’s source',
      'knowledge_entry',
      'source_id',
      () => victimSourceId,
      /knowledge_entry: source_id src_\w+ is not a knowledge_source of this file/,
    ],
    [
      'a memory promoted to another account’s snapshot',
      'memory',
      'promoted_to',
      () => victimSnapshots[0],
      /memory: promoted_to snap_\w+ is not a snapshot of this file/,
    ],
    [
      'a knowledge source made into another account’s snapshots',
      'knowledge_source',
      'snapshot_ids',
      () => victimSnapshots,
      /knowledge_source: snapshot_ids snap_\w+ is not a snapshot of this file/,
    ],
    [
      'an edge ending at another account’s snapshot',
      'edge',
      'target_id',
      () => victimSnapshots[1],
      /edge: target_id snap_\w+ is not a snapshot of this file/,
    ],
    [
      'a knowledge entry in a source that exists nowhere',
      'knowledge_entry',
      'source_id',
      () => 'src_01JDQ8YF3K2M4N6P8Q0R2S4HST',
      /knowledge_entry: source_id src_01JDQ8YF3K2M4N6P8Q0R2S4HST is not a knowledge_source of this file/,
    ],
  ];

  for (const [what, kind, field, value, reason] of cases) {
    it(`POST /v1/brains/import: ${what} fails the job with a 400 naming the line, and writes nothing`, async () => {
      const attacker = await server.newKey();
      const { text, line } = tampered(kind, field, value());
      const job = await importJob(attacker, text);
      assert.equal(job.status, 'failed', JSON.stringify(job));
      assert.equal(job.error.error.code, 'BAD_REQUEST', JSON.stringify(job.error));
      const detail = job.error.error.details.find((d: { line: number }) => d.line === line);
      assert.ok(detail, JSON.stringify(job.error.error.details));
      assert.match(detail.reason, reason);
      const brains = await server.request('GET', '/v1/brains', { key: attacker });
      assert.equal(brains.body.data.length, 1, 'no brain was made');

      // The victim's source still has its own entries only, each one editable by the victim.
      const own = await server.request('GET', `/v1/specific-knowledge/sources/${victimSourceId}`, { key: victim });
      assert.equal(own.status, 200);
      for (const entry of own.body.data.entries) assert.equal(entry.brain_id, victim.brainId);
    });

    it(`snapgraph import: ${what} is refused naming the line`, async () => {
      const { text, line } = tampered(kind, field, value());
      const path = writeFile(server.dir, `${kind}-${field}.jsonl`, text);
      const refused = await importFile(server.app.domain, importSource(path, '{')).then(
        () => assert.fail('imported'),
        (err: unknown) => err,
      );
      assert.ok(refused instanceof ImportRejected, String(refused));
      assert.equal(refused.status, 400);
      const named = refused.problems.filter((p) => p.line === line).map((p) => p.reason);
      assert.ok(
        named.some((r) => reason.test(r)),
        JSON.stringify(refused.problems),
      );
    });
  }

  it('the untouched file imports, its references renamed with it', async () => {
    const key = await server.newKey();
    const job = await importJob(key, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    assert.equal(job.status, 'succeeded', JSON.stringify(job));
  });
});
