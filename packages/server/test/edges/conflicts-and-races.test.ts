import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  EDGE_TYPES,
  assertError,
  brainEdges,
  createBrain,
  createEdge,
  createSnapshot,
  getBrain,
  newKey,
  type EdgeType,
  type Snapshot,
} from './fixtures.js';

describe('POST /v1/edges: duplicates (409) and races', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  async function setup(): Promise<{ key: TestKey; a: Snapshot; b: Snapshot }> {
    const key = await newKey(api);
    const a = await createSnapshot(api, key, { name: 'A' });
    const b = await createSnapshot(api, key, { name: 'B' });
    return { key, a, b };
  }

  const post = (key: TestKey, source: Snapshot, target: Snapshot, edgeType: EdgeType, extra = {}) =>
    api.request('POST', '/v1/edges', {
      key,
      body: { source_id: source.id, target_id: target.id, edge_type: edgeType, ...extra },
    });

  for (const edgeType of EDGE_TYPES) {
    it(`a second A ${edgeType} B -> 409 CONFLICT, the first edge unchanged`, async () => {
      const { key, a, b } = await setup();
      const first = await createEdge(api, key, {
        source_id: a.id,
        target_id: b.id,
        edge_type: edgeType,
        strength: 0.2,
      });
      const dup = await post(key, a, b, edgeType, { strength: 0.9, label: 'again' });
      assertError(dup, 409, 'CONFLICT');
      assert.deepEqual(await brainEdges(api, key, key.brainId), [first]);
    });
  }

  for (const edgeType of EDGE_TYPES.filter((t) => t !== 'related_to')) {
    it(`the reverse of a directional edge is a different edge: B ${edgeType} A after A ${edgeType} B -> 201`, async () => {
      const { key, a, b } = await setup();
      const forward = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: edgeType });
      const reverse = await post(key, b, a, edgeType);
      assert.equal(reverse.status, 201, JSON.stringify(reverse.body));
      assert.equal(reverse.body.data.source_id, b.id);
      assert.equal(reverse.body.data.target_id, a.id);
      assert.notEqual(reverse.body.data.id, forward.id);
      const stored = await brainEdges(api, key, key.brainId);
      assert.deepEqual(stored.map((e) => e.id).sort(), [forward.id, reverse.body.data.id].sort());
    });
  }

  it('related_to is non-directional: B related_to A after A related_to B -> 409', async () => {
    const { key, a, b } = await setup();
    const first = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'related_to' });
    const reverse = await post(key, b, a, 'related_to');
    assertError(reverse, 409, 'CONFLICT');
    // And the same the other way round, whichever id sorts first.
    const c = await createSnapshot(api, key, { name: 'C' });
    const second = await createEdge(api, key, { source_id: c.id, target_id: a.id, edge_type: 'related_to' });
    assertError(await post(key, a, c, 'related_to'), 409, 'CONFLICT');
    const stored = await brainEdges(api, key, key.brainId);
    assert.deepEqual(stored.map((e) => e.id).sort(), [first.id, second.id].sort());
  });

  it('the same pair with a different type -> 201, for all six types on one pair', async () => {
    const { key, a, b } = await setup();
    const ids: string[] = [];
    for (const edgeType of EDGE_TYPES) {
      const res = await post(key, a, b, edgeType);
      assert.equal(res.status, 201, `${edgeType}: ${JSON.stringify(res.body)}`);
      ids.push(res.body.data.id);
    }
    const stored = await brainEdges(api, key, key.brainId);
    assert.deepEqual(stored.map((e) => e.id).sort(), ids.sort());
    assert.deepEqual(stored.map((e) => e.edge_type).sort(), [...EDGE_TYPES].sort());
    assert.equal((await getBrain(api, key, key.brainId)).edge_count, 6);
  });

  it('a duplicate in a different pair does not conflict: A supports B and A supports C', async () => {
    const { key, a, b } = await setup();
    const c = await createSnapshot(api, key, { name: 'C' });
    await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'supports' });
    const res = await post(key, a, c, 'supports');
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });

  it('the same edge in two accounts does not conflict', async () => {
    const one = await setup();
    const two = await setup();
    await createEdge(api, one.key, { source_id: one.a.id, target_id: one.b.id, edge_type: 'supports' });
    const res = await post(two.key, two.a, two.b, 'supports');
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });

  it('order of checks: 422 (self-loop) before 409; 404 before 409', async () => {
    const { key, a, b } = await setup();
    await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'supports' });
    assertError(await post(key, a, a, 'supports'), 422, 'UNPROCESSABLE');
    const missing = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: a.id, target_id: 'snap_01J00000000000000000000000', edge_type: 'supports' },
    });
    assertError(missing, 404, 'NOT_FOUND');
  });

  it('400 before 409: a duplicate with an invalid strength -> 400', async () => {
    const { key, a, b } = await setup();
    await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'supports' });
    const res = await post(key, a, b, 'supports', { strength: 5 });
    assertError(res, 400, 'BAD_REQUEST');
  });

  describe('races', () => {
    function tally(statuses: number[]): Record<number, number> {
      const out: Record<number, number> = {};
      for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
      return out;
    }

    it('10 identical concurrent creates -> exactly one 201 and nine 409, one edge stored', async () => {
      const { key, a, b } = await setup();
      const results = await Promise.all(Array.from({ length: 10 }, () => post(key, a, b, 'supports')));
      assert.deepEqual(tally(results.map((r) => r.status)), { 201: 1, 409: 9 });
      for (const r of results.filter((x) => x.status === 409)) assertError(r, 409, 'CONFLICT');
      const winner = results.find((r) => r.status === 201);
      assert.ok(winner);
      assert.deepEqual(await brainEdges(api, key, key.brainId), [winner.body.data]);
      assert.equal((await getBrain(api, key, key.brainId)).edge_count, 1);
    });

    it('racing A related_to B against B related_to A -> exactly one 201, one edge stored', async () => {
      const { key, a, b } = await setup();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0 ? post(key, a, b, 'related_to') : post(key, b, a, 'related_to'),
        ),
      );
      assert.deepEqual(tally(results.map((r) => r.status)), { 201: 1, 409: 9 });
      for (const r of results.filter((x) => x.status === 409)) assertError(r, 409, 'CONFLICT');
      const winner = results.find((r) => r.status === 201);
      assert.ok(winner);
      assert.deepEqual(await brainEdges(api, key, key.brainId), [winner.body.data]);
    });

    it('two racing creates of the same edge, through both prefixes -> one 201 and one 409', async () => {
      const { key, a, b } = await setup();
      const body = { source_id: a.id, target_id: b.id, edge_type: 'contradicts' };
      const results = await Promise.all([
        api.request('POST', '/v1/edges', { key, body }),
        api.request('POST', '/api/v1/edges', { key, body }),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 409]);
      assert.equal((await brainEdges(api, key, key.brainId)).length, 1);
    });

    it('racing creates of different types on one pair all succeed', async () => {
      const { key, a, b } = await setup();
      const results = await Promise.all(EDGE_TYPES.map((t) => post(key, a, b, t)));
      assert.deepEqual(
        results.map((r) => r.status),
        EDGE_TYPES.map(() => 201),
      );
      assert.equal((await brainEdges(api, key, key.brainId)).length, 6);
    });

    it('a duplicate is judged per pair even in a second brain of the account', async () => {
      const key = await newKey(api);
      const brain = await createBrain(api, key, 'Other');
      const a = await createSnapshot(api, key, { brain_id: brain.id });
      const b = await createSnapshot(api, key, { brain_id: brain.id });
      const results = await Promise.all(Array.from({ length: 4 }, () => post(key, a, b, 'elaborates')));
      assert.deepEqual(tally(results.map((r) => r.status)), { 201: 1, 409: 3 });
      assert.equal((await brainEdges(api, key, brain.id)).length, 1);
    });
  });
});
