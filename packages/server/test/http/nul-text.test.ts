import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { testBackend } from '../helpers/database.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { waitForJob } from '../jobs/support.js';
import { exportText } from '../transfer/support.js';

/**
 * U+0000 (domain/nul-text.ts): SQLite keeps it; PostgreSQL cannot store it, so there every text a
 * request sends holding it is a 400 naming where, never a 500 from the database, and an import
 * file holding it fails its job naming the lines. An id holding it is a 404 on both.
 */
describe('the NUL character in what a request sends', () => {
  let api: TestApi;
  let key: TestKey;
  let uploads: string;
  const refuses = testBackend === 'postgres';
  before(async () => {
    uploads = mkdtempSync(join(tmpdir(), 'snapgraph-nul-'));
    api = await startTestApi({ imports: { maxBytes: 1024 * 1024, dir: uploads } });
    key = await api.newKey();
  });
  after(async () => {
    await api.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  const refusedNaming = (res: { status: number; body: any }, field: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'BAD_REQUEST');
    assert.equal(res.body.error.details.field, field);
    assert.match(res.body.error.message, /NUL character \(U\+0000\)/);
  };

  it('an id holding it is a 404', async () => {
    for (const path of [
      '/v1/snapshots/snap_%00',
      '/v1/memories/mem_%00',
      '/v1/brains/%00/export',
      '/v1/jobs/job_%00',
    ]) {
      const res = await api.request('GET', path, { key });
      assert.equal(res.status, 404, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
  });

  it('a body holding it: stored on SQLite, a 400 naming the field on PostgreSQL', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/v1/memories', { content: 'x\u0000y' }, 'content'],
      ['POST', '/v1/memories', { content: 'xy', speaker: 'a\u0000' }, 'speaker'],
      ['POST', '/v1/snapshots', { name: 'a\u0000b', core: 'c' }, 'name'],
      ['POST', '/v1/snapshots', { name: 'ok', core: 'c', tags: ['a', 'b\u0000'] }, 'tags[1]'],
      ['POST', '/v1/snapshots', { name: 'ok', core: 'c', emotion: { mood: 'x\u0000' } }, 'emotion.mood'],
      ['POST', '/v1/brains', { name: 'x\u0000y' }, 'name'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await api.request(method, path, { key, body });
      if (refuses) refusedNaming(res, field);
      else assert.equal(res.status, 201, `${path} ${field}: ${JSON.stringify(res.body)}`);
    }
  });

  it('a query parameter holding it: a 400 naming it on PostgreSQL, an ordinary filter on SQLite', async () => {
    for (const [path, field] of [
      ['/v1/snapshots?brain_id=%00', 'brain_id'],
      ['/v1/memories?speaker=%00', 'speaker'],
      ['/v1/snapshots/search?q=x&tag=a%00', 'tag'],
      ['/v1/snapshots?tag=a%00', 'tag'],
    ] as const) {
      const res = await api.request('GET', path, { key });
      if (refuses) refusedNaming(res, field);
      else assert.ok([200, 404].includes(res.status), `${path}: ${res.status}`);
    }
  });

  it('an import file holding it: imported on SQLite, its lines named on PostgreSQL', async () => {
    const lines = (await exportText(api, key, key.brainId)).trimEnd().split('\n');
    const header = JSON.parse(lines[0] as string);
    const fresh = 'brain_01JDQ8YF3K2M4N6P8Q0R2S4T6V';
    const file = [
      JSON.stringify({ ...header, brain_id: fresh }),
      JSON.stringify({ kind: 'brain', data: { ...JSON.parse(lines[1] as string).data, id: fresh, name: 'Nul' } }),
      JSON.stringify({
        kind: 'memory',
        data: {
          id: 'mem_01JDQ8YF3K2M4N6P8Q0R2S4T6V',
          brain_id: fresh,
          content: 'x\u0000y',
          memory_type: 'fact',
          speaker: null,
          tags: [],
          source_emotion: null,
          emotional_valence: null,
          emotional_intensity: null,
          occurred_at: '2024-01-01T00:00:00.000Z',
          session_id: null,
          promoted_to: null,
          created_at: '2024-01-01T00:00:00.000Z',
          updated_at: '2024-01-01T00:00:00.000Z',
        },
      }),
      JSON.stringify({ kind: 'end', counts: { brain: 1, memory: 1 } }),
    ].join('\n');
    const accepted = await api.request('POST', '/v1/brains/import', {
      key,
      rawBody: `${file}\n`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const job = await waitForJob(api.request, key, accepted.body.data.job_id);
    if (!refuses) {
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      return;
    }
    assert.equal(job.status, 'failed');
    assert.equal(job.error.error.code, 'BAD_REQUEST');
    assert.deepEqual(
      job.error.error.details.map((d: { line: number }) => d.line),
      [3],
    );
    assert.match(job.error.error.details[0].reason, /content must not contain the NUL character/);
  });
});
