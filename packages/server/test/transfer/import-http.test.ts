import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { waitForJob } from '../jobs/support.js';
import { exportText, fillBrain, parseLines } from './support.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };

describe('POST /v1/brains/import (design §15.3)', () => {
  let source: TestApi;
  let target: TestApi;
  let owner: TestKey;
  let exported: string;
  let graphml: string;
  let uploads: string;
  before(async () => {
    source = await startTestApi({ backgroundWork: false });
    owner = await source.newKey();
    await fillBrain(source, owner);
    exported = await exportText(source, owner, owner.brainId);
    graphml = await exportText(source, owner, owner.brainId, 'graphml');
    uploads = mkdtempSync(join(tmpdir(), 'snapgraph-uploads-'));
    target = await startTestApi({ imports: { maxBytes: 64 * 1024, dir: uploads } });
  });
  after(async () => {
    await source.close();
    await target.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  const upload = (api: TestApi, key: TestKey, body: string, query = '', headers: Record<string, string> = NDJSON) =>
    api.request('POST', `/v1/brains/import${query}`, { key, rawBody: body, headers });

  /** Sends the file and waits for its job; returns the finished job. */
  async function imported(api: TestApi, key: TestKey, body: string, query = '', headers = NDJSON) {
    const accepted = await upload(api, key, body, query, headers);
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.equal(accepted.headers.location, `/v1/jobs/${accepted.body.data.job_id}`);
    assert.equal(accepted.body.data.id, accepted.body.data.job_id);
    assert.equal(accepted.body.data.kind, 'import');
    return waitForJob(api.request, key, accepted.body.data.job_id);
  }

  /** The upload is removed once the response is sent (onResponse): a moment after the client has it. */
  const noUploadsLeft = async () => {
    for (let i = 0; i < 200 && readdirSync(uploads).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(readdirSync(uploads), []);
  };

  const counts = { brain: 1, snapshot: 3, edge: 2, tombstone: 1, memory: 1, knowledge_source: 1 };
  const brainCounts = async (api: TestApi, key: TestKey, brainId: string) => {
    const res = await api.request('GET', `/v1/brains/${brainId}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { snapshots: res.body.data.snapshot_count, edges: res.body.data.edge_count };
  };

  it('imports a good file into the caller’s account, keeping the ids that are free here', async () => {
    const key = await target.newKey();
    const job = await imported(target, key, exported);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.equal(job.result.brain_id, owner.brainId, 'the brain id was free on this server: kept');
    assert.deepEqual({ ...job.result.counts, knowledge_entry: undefined }, { ...counts, knowledge_entry: undefined });
    assert.deepEqual(await brainCounts(target, key, owner.brainId), { snapshots: 3, edges: 2 });
    const snapshots = await target.request('GET', `/v1/snapshots?brain_id=${owner.brainId}`, { key });
    assert.equal(snapshots.body.count, 3);
    const fileIds = parseLines(exported)
      .filter((line) => line.kind === 'snapshot')
      .map((line) => line.data?.id);
    assert.deepEqual(snapshots.body.data.map((s: { id: string }) => s.id).sort(), fileIds.sort());
    // Another account of this server does not see it.
    const stranger = await target.newKey();
    assert.equal((await target.request('GET', `/v1/brains/${owner.brainId}`, { key: stranger })).status, 404);
    assert.deepEqual(readdirSync(uploads), [], 'the uploaded file is removed once imported');

    // The same file again: its ids are taken now, so a new brain gets new ids; the first is untouched.
    const again = await imported(target, key, exported);
    assert.equal(again.status, 'succeeded', JSON.stringify(again.error));
    assert.notEqual(again.result.brain_id, owner.brainId);
    assert.deepEqual(again.result.counts, job.result.counts);
    assert.deepEqual(await brainCounts(target, key, again.result.brain_id), { snapshots: 3, edges: 2 });
    assert.deepEqual(await brainCounts(target, key, owner.brainId), { snapshots: 3, edges: 2 });
    const copies = await target.request('GET', `/v1/snapshots?brain_id=${again.result.brain_id}`, { key });
    for (const snapshot of copies.body.data) assert.ok(!fileIds.includes(snapshot.id), 'new ids were minted');
  });

  it('never writes into the account that owns the file’s ids: a stranger importing it gets a brain of its own', async () => {
    const runner = await startTestApi({ backgroundWork: true });
    try {
      // The owner's own server, with a runner: the file's brain id exists here, in another account.
      const key = await runner.newKey();
      const first = await imported(runner, key, exported);
      assert.equal(first.status, 'succeeded');
      const thief = await runner.newKey();
      const job = await imported(runner, thief, exported);
      assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
      assert.notEqual(job.result.brain_id, first.result.brain_id);
      assert.deepEqual(await brainCounts(runner, thief, job.result.brain_id), { snapshots: 3, edges: 2 });
      assert.deepEqual(await brainCounts(runner, key, first.result.brain_id), { snapshots: 3, edges: 2 });
      assert.equal((await runner.request('GET', `/v1/brains/${job.result.brain_id}`, { key })).status, 404);
    } finally {
      await runner.close();
    }
  });

  it('a file naming a free brain id but records whose ids exist (another account’s) gets new ids for all', async () => {
    const victim = await target.newKey();
    const first = await imported(target, victim, exported);
    assert.equal(first.status, 'succeeded');
    const victimBrain = first.result.brain_id as string;
    const before = await target.request('GET', `/v1/snapshots?brain_id=${victimBrain}`, { key: victim });
    // The same records under a brain id nobody has.
    const hostile = exported.split(owner.brainId).join('brain_01JDQ8YF3K2M4N6P8Q0R2S4HST');
    const intruder = await target.newKey();
    const job = await imported(target, intruder, hostile);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.notEqual(job.result.brain_id, 'brain_01JDQ8YF3K2M4N6P8Q0R2S4HST', 'the ids were not all free: new ones');
    const theirs = await target.request('GET', `/v1/snapshots?brain_id=${job.result.brain_id}`, { key: intruder });
    assert.equal(theirs.body.count, 3);
    const victimIds = new Set(before.body.data.map((s: { id: string }) => s.id));
    for (const snapshot of theirs.body.data) assert.ok(!victimIds.has(snapshot.id));
    const after = await target.request('GET', `/v1/snapshots?brain_id=${victimBrain}`, { key: victim });
    assert.deepEqual(after.body, before.body, 'the other account’s brain is untouched');
    assert.deepEqual(await brainCounts(target, victim, victimBrain), { snapshots: 3, edges: 2 });
  });

  it('imports GraphML, and into an existing brain of the caller with brain_id (new ids)', async () => {
    const key = await target.newKey();
    const job = await imported(target, key, graphml, '', { 'content-type': 'application/graphml+xml' });
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.deepEqual(await brainCounts(target, key, job.result.brain_id), { snapshots: 3, edges: 2 });

    const into = await imported(target, key, exported, `?brain_id=${key.brainId}`);
    assert.equal(into.status, 'succeeded', JSON.stringify(into.error));
    assert.equal(into.result.brain_id, key.brainId);
    assert.deepEqual(await brainCounts(target, key, key.brainId), { snapshots: 3, edges: 2 });
    // Into the same brain again: the ids derived from it are there already; nothing changes.
    const twice = await imported(target, key, exported, `?brain_id=${key.brainId}`);
    assert.equal(twice.status, 'succeeded');
    assert.deepEqual(await brainCounts(target, key, key.brainId), { snapshots: 3, edges: 2 });
  });

  it('a brain exported and imported back into itself with brain_id: its records join it again under new ids', async () => {
    const key = await target.newKey();
    await fillBrain(target, key);
    const own = await exportText(target, key, key.brainId);
    const into = await imported(target, key, own, `?brain_id=${key.brainId}`);
    assert.equal(into.status, 'succeeded', JSON.stringify(into.error));
    assert.equal(into.result.brain_id, key.brainId, 'the named brain, not a new one');
    assert.deepEqual(await brainCounts(target, key, key.brainId), { snapshots: 6, edges: 4 });
    const brains = await target.request('GET', '/v1/brains', { key });
    assert.equal(brains.body.count, 1, 'no other brain was made');
    // Again: the ids derived from this brain are there already; nothing changes.
    const twice = await imported(target, key, own, `?brain_id=${key.brainId}`);
    assert.equal(twice.status, 'succeeded');
    assert.deepEqual(await brainCounts(target, key, key.brainId), { snapshots: 6, edges: 4 });
  });

  it('another account’s brain, or one that does not exist, is a 404 and queues nothing', async () => {
    const key = await target.newKey();
    const other = await target.newKey();
    for (const brainId of [other.brainId, 'brain_01JDQ8YF3K2M4N6P8Q0R2S4T6V']) {
      const res = await upload(target, key, exported, `?brain_id=${brainId}`);
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
    assert.equal((await target.request('GET', '/v1/jobs', { key })).body.count, 0);
    assert.deepEqual(await brainCounts(target, other, other.brainId), { snapshots: 0, edges: 0 });
    assert.deepEqual(readdirSync(uploads), []);
  });

  it('brain_id given twice is a 400 naming it, before the file is read', async () => {
    const key = await target.newKey();
    const res = await upload(target, key, exported, `?brain_id=${key.brainId}&brain_id=${key.brainId}`);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'BAD_REQUEST');
    assert.equal(res.body.error.details.field, 'brain_id');
    assert.equal((await target.request('GET', '/v1/jobs', { key })).body.count, 0);
    await noUploadsLeft();
  });

  it('a file with bad lines fails the job naming each line, and imports nothing', async () => {
    const key = await target.newKey();
    const lines = exported.trimEnd().split('\n');
    lines[2] = '{"kind": "snapshot", "data": {';
    const snapshot = JSON.parse(lines[3] as string);
    snapshot.data.type = 'Opinion';
    lines[3] = JSON.stringify(snapshot);
    const job = await imported(target, key, `${lines.join('\n')}\n`);
    assert.equal(job.status, 'failed');
    assert.equal(job.error.error.code, 'BAD_REQUEST');
    assert.ok(Array.isArray(job.error.error.details), JSON.stringify(job.error));
    const named = job.error.error.details.map((d: { line: number }) => d.line);
    assert.ok(named.includes(3) && named.includes(4), JSON.stringify(job.error.error.details));
    for (const detail of job.error.error.details) assert.equal(typeof detail.reason, 'string');
    assert.equal((await target.request('GET', `/v1/brains/${owner.brainId}`, { key })).status, 404);
    const brains = await target.request('GET', '/v1/brains', { key });
    assert.equal(brains.body.data.length, 1, 'no brain was made');
    assert.deepEqual(readdirSync(uploads), []);
  });

  it('names at most the first 100 bad lines', async () => {
    const key = await target.newKey();
    const lines = exported.trimEnd().split('\n');
    const bad = Array.from({ length: 150 }, () => 'not json');
    const job = await imported(target, key, [lines[0], ...bad, ...lines.slice(1)].join('\n'));
    assert.equal(job.status, 'failed');
    assert.equal(job.error.error.details.length, 100);
    assert.equal(job.error.error.details[0].line, 2);
  });

  it('counts every bad line of a file of thousands, naming the first 100', async () => {
    const key = await target.newKey();
    const lines = exported.trimEnd().split('\n');
    const job = await imported(
      target,
      key,
      [lines[0], ...Array.from({ length: 2_500 }, () => ''), ...lines.slice(1)].join('\n'),
    );
    assert.equal(job.status, 'failed');
    assert.equal(job.error.error.message, 'the file has 2500 bad line(s); nothing was imported');
    assert.equal(job.error.error.details.length, 100);
  });

  it('counts a line once though the end of the file names it again (no brain record)', async () => {
    const key = await target.newKey();
    const lines = exported.trimEnd().split('\n');
    const end = JSON.stringify({ kind: 'end', counts: { brain: 1 } });
    const job = await imported(target, key, [lines[0], 'not json', end].join('\n'));
    assert.equal(job.status, 'failed');
    assert.equal(job.error.error.message, 'the file has 2 bad line(s); nothing was imported');
    assert.deepEqual(
      job.error.error.details.map((d: { line: number }) => d.line),
      [2, 3],
    );
  });

  const GRAPHML = { 'content-type': 'application/graphml+xml' };

  it('GraphML written on one line imports as the file it was', async () => {
    const key = await target.newKey();
    const job = await imported(target, key, graphml.replace(/\n/g, ''), '', GRAPHML);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.deepEqual(await brainCounts(target, key, job.result.brain_id), { snapshots: 3, edges: 2 });
  });

  it('GraphML nested deeper than any graph, or with thousands of keys, fails the job with a 400 naming why', async () => {
    const key = await target.newKey();
    const open = `<?xml version="1.0"?><graphml><graph id="${owner.brainId}">`;
    for (const [body, reason] of [
      [`${open}${'<a>'.repeat(5_000)}`, /^elements nested more than 32 deep/],
      [
        `<?xml version="1.0"?><graphml>${Array.from({ length: 1_001 }, (_, i) => `<key id="k${i}"/>`).join('')}</graphml>`,
        /^more than 1000 <key> elements/,
      ],
    ] as const) {
      const job = await imported(target, key, body, '', GRAPHML);
      assert.equal(job.status, 'failed', body.slice(0, 80));
      assert.equal(job.error.error.code, 'BAD_REQUEST');
      assert.match(job.error.error.details[0].reason, reason);
    }
    const brains = await target.request('GET', '/v1/brains', { key });
    assert.equal(brains.body.data.length, 1, 'no brain was made');
  });

  it('a file over IMPORT_MAX_BYTES is a 413 with the documented body, and nothing stays on disk', async () => {
    const key = await target.newKey();
    const res = await upload(target, key, `${exported}${' '.repeat(64 * 1024)}`);
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(res.body.error.message, 'request body is larger than 64 KiB', 'the limit this server has');
    assert.match(res.body.request_id, /^req_/);
    assert.equal((await target.request('GET', '/v1/jobs', { key })).body.count, 0);
    assert.deepEqual(readdirSync(uploads), []);
  });

  it('Idempotency-Key: the same file again gets the first 202, and its upload is not kept', async () => {
    const key = await target.newKey();
    const headers = { ...NDJSON, 'idempotency-key': 'import-once' };
    const first = await upload(target, key, exported, '', headers);
    assert.equal(first.status, 202);
    await waitForJob(target.request, key, first.body.data.job_id);
    const replay = await upload(target, key, exported, '', headers);
    assert.equal(replay.status, 202);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body.data.job_id, first.body.data.job_id);
    assert.equal((await target.request('GET', '/v1/jobs', { key })).body.count, 1);
    await noUploadsLeft();
    const other = await upload(target, key, `${exported}\n`, '', headers);
    assert.equal(other.status, 409);
    await noUploadsLeft();
  });

  it('a body without Content-Length is cut off at the limit: 413, nothing kept', async () => {
    const key = await target.newKey();
    const res = await target.app.inject({
      method: 'POST',
      url: '/v1/brains/import',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/x-ndjson' },
      payload: Readable.from([exported, 'x'.repeat(40 * 1024), 'y'.repeat(40 * 1024)]),
    });
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(JSON.parse(res.body).error.code, 'PAYLOAD_TOO_LARGE');
    await noUploadsLeft();
    assert.equal((await target.request('GET', '/v1/jobs', { key })).body.count, 0);
  });

  it('another media type is a 415; no key is a 401', async () => {
    const key = await target.newKey();
    const json = await upload(target, key, '{}', '', { 'content-type': 'application/json' });
    assert.equal(json.status, 415);
    assert.equal(json.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(json.body.error.message, /application\/x-ndjson/);
    const text = await upload(target, key, exported, '', { 'content-type': 'text/plain' });
    assert.equal(text.status, 415);
    // Before the 404 of a brain that is not the caller's (design §3.7's order).
    const stranger = await target.newKey();
    const both = await upload(target, key, '{}', `?brain_id=${stranger.brainId}`, {
      'content-type': 'application/json',
    });
    assert.equal(both.status, 415, JSON.stringify(both.body));
    const untyped = await target.request('POST', `/v1/brains/import?brain_id=${stranger.brainId}`, {
      key,
      rawBody: exported,
    });
    assert.equal(untyped.status, 415, JSON.stringify(untyped.body));
    const anonymous = await target.request('POST', '/v1/brains/import', { rawBody: exported, headers: NDJSON });
    assert.equal(anonymous.status, 401);
  });

  it('is served under /api/v1 too, and counts in the knowledge rate-limit group', async () => {
    const limited = await startTestApi({ rateLimits: true });
    try {
      const key = await limited.newKey({ plan: 'free' });
      const res = await limited.request('POST', '/api/v1/brains/import', { key, rawBody: exported, headers: NDJSON });
      assert.equal(res.status, 202);
      assert.equal(res.headers.location, `/api/v1/jobs/${res.body.data.job_id}`);
      const ingest = await limited.request('POST', '/v1/ingest', { key, body: { content: 'x' } });
      assert.equal(Number(ingest.headers['x-ratelimit-limit']), Number(res.headers['x-ratelimit-limit']));
    } finally {
      await limited.close();
    }
  });
});
