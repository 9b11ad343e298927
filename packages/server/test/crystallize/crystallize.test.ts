import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { NOTES } from './fixtures.js';

describe('POST /v1/crystallize with the built-in extractor', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
    other = await api.newKey();
  });
  after(() => api.close());

  const newBrain = async (owner = key) => {
    const res = await api.request('POST', '/v1/brains', { key: owner, body: { name: 'notes' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const run = (body: Record<string, unknown>, owner = key, prefix = '/v1') =>
    api.request('POST', `${prefix}/crystallize`, { key: owner, body });
  const brainCounts = async (brainId: string) => {
    const res = await api.request('GET', `/v1/brains/${brainId}`, { key });
    return { snapshots: res.body.data.snapshot_count as number, edges: res.body.data.edge_count as number };
  };

  it('answers 201 with the snapshots, the run id, usage and meta in the documented shape', async () => {
    const brainId = await newBrain();
    const res = await run({ text: NOTES, brain_id: brainId });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { data, usage, meta, run_id } = res.body;
    assert.match(run_id, /^cry_[0-9A-Za-z]{26}$/);
    assert.equal(res.headers.location, `/v1/crystallize/${run_id}`);
    assert.ok(data.snapshots.length >= 1, 'some insight is found');
    assert.equal(data.count, data.snapshots.length);
    assert.ok(Array.isArray(data.edges));
    assert.equal(data.captures, undefined);
    for (const snapshot of data.snapshots) {
      assert.match(snapshot.id, /^snap_/);
      assert.equal(snapshot.brain_id, brainId);
      assert.equal(snapshot.source_type, 'api');
      assert.equal(snapshot.source_id, run_id);
      assert.ok(['Belief', 'Model', 'Rule', 'Conviction', 'Principle'].includes(snapshot.type));
      assert.ok(snapshot.name.length >= 1 && snapshot.name.length <= 200);
      assert.ok(snapshot.core.length >= 1);
      for (const field of ['story', 'moment', 'source', 'risks', 'proof', 'emotion']) assert.ok(field in snapshot);
      const stored = await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key });
      assert.equal(stored.status, 200);
      assert.deepEqual(stored.body.data, snapshot);
    }
    assert.deepEqual(usage, {
      totalTokensIn: 0,
      totalTokensOut: 0,
      model: 'builtin',
      phases: {
        extract: { tokensIn: 0, tokensOut: 0 },
        synthesize: { tokensIn: 0, tokensOut: 0 },
        crystallize: { tokensIn: 0, tokensOut: 0 },
      },
      embeddingTokens: 0,
      totalTokens: 0,
    });
    assert.ok(meta.rawInsightCount >= meta.refinedCount && meta.refinedCount >= meta.finalCount);
    assert.equal(meta.finalCount, data.count);
    assert.ok(Number.isInteger(meta.durationMs) && meta.durationMs >= 0);
    assert.equal((await brainCounts(brainId)).snapshots, data.count);
  });

  it('records the run: GET /v1/crystallize/:run_id, 404 for another account and for an unknown id', async () => {
    const brainId = await newBrain();
    const made = await run({
      text: NOTES,
      brain_id: brainId,
      agent_id: 'agent-7',
      session_id: 's-1',
      source_type: 'meeting-notes',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const res = await api.request('GET', `/v1/crystallize/${made.body.run_id}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body.data).sort(), [
      'agent_id',
      'brain_id',
      'capture_ids',
      'created_at',
      'id',
      'meta',
      'session_id',
      'snapshot_ids',
      'source_type',
      'status',
      'usage',
    ]);
    assert.equal(res.body.data.id, made.body.run_id);
    assert.equal(res.body.data.status, 'succeeded');
    assert.equal(res.body.data.source_type, 'meeting-notes');
    assert.equal(res.body.data.agent_id, 'agent-7');
    assert.equal(res.body.data.session_id, 's-1');
    assert.deepEqual(
      res.body.data.snapshot_ids,
      made.body.data.snapshots.map((s: { id: string }) => s.id),
    );
    assert.deepEqual(res.body.data.capture_ids, []);
    assert.deepEqual(res.body.data.usage, made.body.usage);
    assert.deepEqual(res.body.data.meta, made.body.meta);
    for (const snapshot of made.body.data.snapshots) assert.equal(snapshot.source_type, 'meeting-notes');

    const foreign = await api.request('GET', `/v1/crystallize/${made.body.run_id}`, { key: other });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'NOT_FOUND');
    const unknown = await api.request('GET', '/v1/crystallize/cry_0000000000AAAAAAAAAAAAAAAA', { key });
    assert.equal(unknown.status, 404);
  });

  it('creates nothing the second time the same text is crystallized', async () => {
    const brainId = await newBrain();
    const first = await run({ text: NOTES, brain_id: brainId });
    assert.equal(first.status, 201);
    const before = await brainCounts(brainId);
    const second = await run({ text: NOTES, brain_id: brainId });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.equal(second.body.data.count, 0);
    assert.deepEqual(second.body.data.snapshots, []);
    assert.ok(second.body.meta.rawInsightCount >= 1);
    assert.equal(second.body.meta.finalCount, 0);
    assert.deepEqual(await brainCounts(brainId), before);
  });

  it('two runs of the same text at the same moment create its snapshots once', async () => {
    const brainId = await newBrain();
    const [a, b] = await Promise.all([
      run({ text: NOTES, brain_id: brainId }),
      run({ text: `  ${NOTES}\n`, brain_id: brainId }), // the same text once trimmed
    ]);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(b.status, 201, JSON.stringify(b.body));
    const counts = [a.body.data.count, b.body.data.count].sort((x, y) => x - y);
    assert.equal(counts[0], 0, 'one of them found everything already held');
    assert.ok(counts[1] >= 1);
    assert.equal((await brainCounts(brainId)).snapshots, counts[1]);
    // Into two other brains at the same moment, each makes its snapshots: the turns are per brain.
    const [c, d] = await Promise.all([
      run({ text: NOTES, brain_id: await newBrain() }),
      run({ text: NOTES, brain_id: await newBrain() }),
    ]);
    assert.equal(c.body.data.count, counts[1]);
    assert.equal(d.body.data.count, counts[1]);
  });

  it('links new snapshots to what the brain already holds, unless auto_link is false', async () => {
    const text =
      'The arctic fox grows a thick white winter coat for camouflage in the snow. ' +
      'This winter coat of the arctic fox keeps it warm at fifty degrees below zero.';
    // About the same animal and coat, not the same claim (a near-duplicate would be dropped, not linked).
    const existing = { name: 'Arctic fox winter coat', core: 'The arctic fox sheds its white winter coat in spring' };

    const linked = await newBrain();
    const old = await api.request('POST', '/v1/snapshots', { key, body: { ...existing, brain_id: linked } });
    assert.equal(old.status, 201);
    const res = await run({ text, brain_id: linked });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.ok(res.body.data.count >= 1);
    assert.ok(res.body.data.edges.length >= 1, JSON.stringify(res.body.data));
    const newIds = new Set(res.body.data.snapshots.map((s: { id: string }) => s.id));
    for (const edge of res.body.data.edges) {
      assert.equal(edge.origin, 'auto');
      assert.equal(edge.brain_id, linked);
      assert.ok(newIds.has(edge.source_id) || newIds.has(edge.target_id), 'every edge touches a new snapshot');
    }
    assert.ok(
      res.body.data.edges.some((e: { source_id: string; target_id: string }) =>
        [e.source_id, e.target_id].includes(old.body.data.id),
      ),
      'an edge reaches the existing snapshot',
    );
    assert.equal((await brainCounts(linked)).edges, res.body.data.edges.length);

    const unlinked = await newBrain();
    await api.request('POST', '/v1/snapshots', { key, body: { ...existing, brain_id: unlinked } });
    const off = await run({ text, brain_id: unlinked, auto_link: false });
    assert.equal(off.status, 201);
    assert.deepEqual(off.body.data.edges, []);
    assert.equal((await brainCounts(unlinked)).edges, 0);
  });

  it('answers 400 for each bad body, naming the field, and writes nothing', async () => {
    const brainId = await newBrain();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'text'],
      [{ text: 'x'.repeat(49) }, 'text'],
      [{ text: `  ${'x'.repeat(49)}  ` }, 'text'],
      [{ text: 'x'.repeat(100_001) }, 'text'],
      [{ text: 42 }, 'text'],
      [{ text: NOTES, source_type: 'Meeting Notes' }, 'source_type'],
      [{ text: NOTES, source_type: '' }, 'source_type'],
      [{ text: NOTES, source_type: 'a'.repeat(65) }, 'source_type'],
      [{ text: NOTES, review: 'yes' }, 'review'],
      [{ text: NOTES, auto_link: 1 }, 'auto_link'],
      [{ text: NOTES, agent_id: 'a'.repeat(201) }, 'agent_id'],
      [{ text: NOTES, session_id: 's'.repeat(201) }, 'session_id'],
      [{ text: NOTES, colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await run({ brain_id: brainId, ...body });
      assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'BAD_REQUEST');
      assert.ok(
        res.body.error.details.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.error.details)}`,
      );
    }
    assert.equal((await brainCounts(brainId)).snapshots, 0);
    const exactly = await run({ brain_id: brainId, text: 'y'.repeat(50), auto_link: false });
    assert.equal(exactly.status, 201, '50 characters is enough');
  });

  it("answers 404 for another account's brain", async () => {
    const theirs = await newBrain(other);
    const res = await run({ text: NOTES, brain_id: theirs });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  });

  it('serves /api/v1 the same', async () => {
    const brainId = await newBrain();
    const res = await run({ text: NOTES, brain_id: brainId }, key, '/api/v1');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.location, `/api/v1/crystallize/${res.body.run_id}`);
  });

  describe('review: true', () => {
    it('stores captures instead of snapshots; accept makes the snapshot once, reject drops it', async () => {
      const brainId = await newBrain();
      const res = await run({ text: NOTES, brain_id: brainId, review: true, source_type: 'transcript' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const { data, run_id } = res.body;
      assert.deepEqual(data.snapshots, []);
      assert.equal(data.count, 0);
      assert.ok(data.captures.length >= 2, 'the notes hold several insights');
      for (const capture of data.captures) {
        assert.deepEqual(Object.keys(capture).sort(), ['brain_id', 'created_at', 'id', 'run_id', 'snapshot']);
        assert.match(capture.id, /^cap_/);
        assert.equal(capture.run_id, run_id);
        assert.equal(capture.brain_id, brainId);
        assert.ok(capture.snapshot.name && capture.snapshot.core && capture.snapshot.type);
      }
      assert.equal((await brainCounts(brainId)).snapshots, 0, 'nothing is a snapshot yet');

      const runRecord = await api.request('GET', `/v1/crystallize/${run_id}`, { key });
      assert.equal(runRecord.body.data.status, 'review');
      assert.deepEqual(
        runRecord.body.data.capture_ids,
        data.captures.map((c: { id: string }) => c.id),
      );

      const listed = await api.request('GET', `/v1/captures?brain_id=${brainId}`, { key });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.count, data.captures.length);
      assert.deepEqual(
        listed.body.data.map((c: { id: string }) => c.id).sort(),
        data.captures.map((c: { id: string }) => c.id).sort(),
      );

      const [first, second] = data.captures;
      for (const decision of ['accept', 'reject']) {
        const strict = await api.request('POST', `/v1/captures/${first.id}/${decision}`, { key, body: { foo: 1 } });
        assert.equal(strict.status, 400, `${decision}: ${JSON.stringify(strict.body)}`);
        assert.equal(strict.body.error.details.field, 'foo');
        const missing = await api.request('POST', `/v1/captures/cap_01M86TSB30A5BG4KNH531A81ZZ/${decision}`, {
          key,
          body: { foo: 1 },
        });
        assert.equal(missing.status, 400, 'the body is checked before the capture is looked up');
      }
      const accepted = await api.request('POST', `/v1/captures/${first.id}/accept`, { key, body: {} });
      assert.equal(accepted.status, 201, JSON.stringify(accepted.body));
      const snapshot = accepted.body.data;
      assert.equal(snapshot.source_type, 'transcript');
      assert.equal(snapshot.source_id, run_id);
      assert.equal(snapshot.brain_id, brainId);
      assert.equal(snapshot.name, first.snapshot.name);
      assert.equal(snapshot.core, first.snapshot.core);
      assert.equal(accepted.headers.location, `/v1/snapshots/${snapshot.id}`);
      assert.equal((await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key })).status, 200);

      const again = await api.request('POST', `/v1/captures/${first.id}/accept`, { key });
      assert.equal(again.status, 404, 'a second accept is a 404');
      assert.equal((await brainCounts(brainId)).snapshots, 1);

      const foreign = await api.request('POST', `/v1/captures/${second.id}/reject`, { key: other });
      assert.equal(foreign.status, 404, "another account cannot decide this account's capture");
      const rejected = await api.request('POST', `/v1/captures/${second.id}/reject`, { key });
      assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
      assert.deepEqual(rejected.body, { data: { success: true } });
      assert.equal((await api.request('POST', `/v1/captures/${second.id}/accept`, { key })).status, 404);

      const left = await api.request('GET', `/v1/captures?brain_id=${brainId}`, { key });
      assert.equal(left.body.count, data.captures.length - 2);
      assert.ok(!left.body.data.some((c: { id: string }) => c.id === first.id || c.id === second.id));
    });

    it('the same text crystallized twice for review proposes nothing the second time', async () => {
      const brainId = await newBrain();
      const first = await run({ text: NOTES, brain_id: brainId, review: true });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const pending = first.body.data.captures.length;
      assert.ok(pending >= 2);
      const second = await run({ text: NOTES, brain_id: brainId, review: true });
      assert.equal(second.status, 201, JSON.stringify(second.body));
      assert.deepEqual(second.body.data.captures, []);
      assert.equal(second.body.meta.finalCount, 0);
      const listed = await api.request('GET', `/v1/captures?brain_id=${brainId}`, { key });
      assert.equal(listed.body.count, pending);
    });

    it('pages the pending captures by offset and by cursor, newest first', async () => {
      const brainId = await newBrain();
      const res = await run({ text: NOTES, brain_id: brainId, review: true });
      const total = res.body.data.captures.length;
      assert.ok(total >= 2);
      const all = await api.request('GET', `/v1/captures?brain_id=${brainId}&limit=100`, { key });
      const ids = all.body.data.map((c: { id: string }) => c.id);
      const sorted = [...all.body.data].sort(
        (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
          b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id),
      );
      assert.deepEqual(
        ids,
        sorted.map((c: { id: string }) => c.id),
      );

      const byOffset = await api.request('GET', `/v1/captures?brain_id=${brainId}&limit=1&offset=1`, { key });
      assert.deepEqual(
        byOffset.body.data.map((c: { id: string }) => c.id),
        [ids[1]],
      );
      assert.equal(byOffset.body.count, total);
      assert.equal(byOffset.body.next_cursor, undefined);

      const seen: string[] = [];
      let cursor = '';
      for (;;) {
        const page = await api.request('GET', `/v1/captures?brain_id=${brainId}&limit=1&cursor=${cursor}`, { key });
        assert.equal(page.status, 200);
        seen.push(...page.body.data.map((c: { id: string }) => c.id));
        if (page.body.next_cursor === null) break;
        cursor = page.body.next_cursor;
      }
      assert.deepEqual(seen, ids);

      const bad = await api.request('GET', `/v1/captures?limit=101`, { key });
      assert.equal(bad.status, 400);
      const foreign = await api.request('GET', `/v1/captures?brain_id=${brainId}`, { key: other });
      assert.equal(foreign.status, 404);
    });
  });
});
