import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  assertError,
  assertSameError,
  brainEdges,
  createBrain,
  createEdge,
  createSnapshot,
  createSnapshots,
  getBrain,
  getSnapshot,
  newKey,
  newestFirst,
  storedEdge,
  type Edge,
  type Snapshot,
} from './fixtures.js';

describe('DELETE /v1/edges/:id', () => {
  const clock = manualClock();
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ clock });
  });
  after(() => api.close());

  async function setup(): Promise<{ key: TestKey; a: Snapshot; b: Snapshot; edge: Edge }> {
    const key = await newKey(api);
    const a = await createSnapshot(api, key, { name: 'A' });
    const b = await createSnapshot(api, key, { name: 'B' });
    clock.advance(10);
    const edge = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'supports' });
    return { key, a, b, edge };
  }

  const del = (key: TestKey, id: string, prefix = '/v1') => api.request('DELETE', `${prefix}/edges/${id}`, { key });

  it('200 {message}, the edge is gone, both snapshots unchanged', async () => {
    const { key, a, b, edge } = await setup();
    const keep = await createEdge(api, key, { source_id: b.id, target_id: a.id, edge_type: 'elaborates' });
    clock.advance(1000);
    const res = await del(key, edge.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['message']);
    assert.equal(typeof res.body.message, 'string');
    assert.ok(res.body.message.length > 0);
    assert.equal(await storedEdge(api, key, edge), undefined);
    assert.deepEqual(await brainEdges(api, key, key.brainId), [keep]);
    // Both snapshots still exist, unchanged (updated_at included).
    assert.deepEqual(await getSnapshot(api, key, a.id), a);
    assert.deepEqual(await getSnapshot(api, key, b.id), b);
    const counts = await getBrain(api, key, key.brainId);
    assert.equal(counts.snapshot_count, 2);
    assert.equal(counts.edge_count, 1);
  });

  it('the deleted edge no longer shows in either snapshot list', async () => {
    const { key, a, b, edge } = await setup();
    assert.equal((await del(key, edge.id)).status, 200);
    for (const s of [a, b]) {
      const res = await api.request('GET', `/v1/edges?snapshot_id=${s.id}`, { key });
      assert.deepEqual(res.body, { data: [], total: 0 });
    }
  });

  it('a DELETE with a JSON content type and an empty body is fine', async () => {
    const { key, edge } = await setup();
    const res = await api.request('DELETE', `/v1/edges/${edge.id}`, {
      key,
      headers: { 'content-type': 'application/json' },
      rawBody: '',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(await storedEdge(api, key, edge), undefined);
  });

  it('a second DELETE -> 404', async () => {
    const { key, edge } = await setup();
    assert.equal((await del(key, edge.id)).status, 200);
    assertError(await del(key, edge.id), 404, 'NOT_FOUND');
  });

  it("an unknown id or another account's edge -> 404, indistinguishable; theirs survives", async () => {
    const { key } = await setup();
    const theirs = await setup();
    const unknown = await del(key, 'edge_01J00000000000000000000000');
    assertError(unknown, 404, 'NOT_FOUND');
    const other = await del(key, theirs.edge.id);
    assertError(other, 404, 'NOT_FOUND');
    assertSameError(unknown, other);
    assert.deepEqual(await storedEdge(api, theirs.key, theirs.edge), theirs.edge);
  });

  it('the edge can be created again after it was deleted', async () => {
    const { key, a, b, edge } = await setup();
    assert.equal((await del(key, edge.id)).status, 200);
    const again = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'supports' });
    assert.notEqual(again.id, edge.id);
    assert.deepEqual(await brainEdges(api, key, key.brainId), [again]);
  });

  it('deleting a related_to edge frees the reverse direction', async () => {
    const { key, a, b } = await setup();
    const rel = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'related_to' });
    assert.equal((await del(key, rel.id)).status, 200);
    const reverse = await createEdge(api, key, { source_id: b.id, target_id: a.id, edge_type: 'related_to' });
    assert.equal(reverse.source_id, b.id);
  });

  it('401 without a key; the edge survives', async () => {
    const { key, edge } = await setup();
    assertError(await api.request('DELETE', `/v1/edges/${edge.id}`), 401, 'UNAUTHORIZED');
    assert.deepEqual(await storedEdge(api, key, edge), edge);
  });

  it('/api/v1/edges/:id deletes the same edge', async () => {
    const { key, edge } = await setup();
    const res = await del(key, edge.id, '/api/v1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(typeof res.body.message, 'string');
    assert.equal(await storedEdge(api, key, edge), undefined);
    assertError(await del(key, edge.id, '/v1'), 404, 'NOT_FOUND');
    assertError(await del(key, edge.id, '/api/v1'), 404, 'NOT_FOUND');
  });
});

describe('DELETE /v1/snapshots/:id cascades to its edges', () => {
  const clock = manualClock(Date.parse('2026-02-01T00:00:00.000Z'));
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ clock });
  });
  after(() => api.close());

  it('deletes every incoming and outgoing edge of the snapshot; other edges remain', async () => {
    const key = await newKey(api);
    const [A, B, C, D] = (await createSnapshots(api, key, 4)) as [Snapshot, Snapshot, Snapshot, Snapshot];
    const mk = async (s: Snapshot, t: Snapshot, type: Edge['edge_type']) => {
      clock.advance(1);
      return createEdge(api, key, { source_id: s.id, target_id: t.id, edge_type: type });
    };
    await mk(A, B, 'supports'); // outgoing
    await mk(C, A, 'contradicts'); // incoming
    await mk(A, D, 'related_to'); // outgoing, non-directional
    await mk(D, A, 'evolved_from'); // incoming
    await mk(A, B, 'elaborates'); // second type on one pair
    const bc = await mk(B, C, 'supports');
    const cd = await mk(C, D, 'caused_by');
    const before = await getBrain(api, key, key.brainId);
    assert.equal(before.snapshot_count, 4);
    assert.equal(before.edge_count, 7);

    const res = await api.request('DELETE', `/v1/snapshots/${A.id}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { data: { success: true } });

    assert.deepEqual(await brainEdges(api, key, key.brainId), newestFirst([bc, cd]));
    const after = await getBrain(api, key, key.brainId);
    assert.equal(after.snapshot_count, 3);
    assert.equal(after.edge_count, 2);
    assertError(await api.request('GET', `/v1/snapshots/${A.id}`, { key }), 404, 'NOT_FOUND');
    assertError(await api.request('GET', `/v1/edges?snapshot_id=${A.id}`, { key }), 404, 'NOT_FOUND');
    const ofB = await api.request('GET', `/v1/edges?snapshot_id=${B.id}`, { key });
    assert.deepEqual(ofB.body, { data: [bc], total: 1 });
    const ofD = await api.request('GET', `/v1/edges?snapshot_id=${D.id}`, { key });
    assert.deepEqual(ofD.body, { data: [cd], total: 1 });
  });

  it('the cascaded edges are gone for PUT and DELETE too (404)', async () => {
    const key = await newKey(api);
    const [A, B] = (await createSnapshots(api, key, 2)) as [Snapshot, Snapshot];
    const edge = await createEdge(api, key, { source_id: A.id, target_id: B.id, edge_type: 'supports' });
    assert.equal((await api.request('DELETE', `/v1/snapshots/${B.id}`, { key })).status, 200);
    assertError(await api.request('PUT', `/v1/edges/${edge.id}`, { key, body: { strength: 1 } }), 404, 'NOT_FOUND');
    assertError(await api.request('DELETE', `/v1/edges/${edge.id}`, { key }), 404, 'NOT_FOUND');
    // The surviving snapshot is untouched and can take new edges.
    assert.deepEqual(await getSnapshot(api, key, A.id), A);
    const C = await createSnapshot(api, key);
    await createEdge(api, key, { source_id: A.id, target_id: C.id, edge_type: 'supports' });
    assert.equal((await getBrain(api, key, key.brainId)).edge_count, 1);
  });

  it('deleting a snapshot in one brain leaves the edges of other brains alone', async () => {
    const key = await newKey(api);
    const second = await createBrain(api, key, 'Second');
    const [A, B] = (await createSnapshots(api, key, 2)) as [Snapshot, Snapshot];
    const [E, F, G] = (await createSnapshots(api, key, 3, { brain_id: second.id })) as [Snapshot, Snapshot, Snapshot];
    const ab = await createEdge(api, key, { source_id: A.id, target_id: B.id, edge_type: 'supports' });
    await createEdge(api, key, { source_id: E.id, target_id: F.id, edge_type: 'supports' });
    const fg = await createEdge(api, key, { source_id: F.id, target_id: G.id, edge_type: 'related_to' });
    assert.equal((await api.request('DELETE', `/v1/snapshots/${E.id}`, { key })).status, 200);
    assert.deepEqual(await brainEdges(api, key, second.id), [fg]);
    assert.deepEqual(await brainEdges(api, key, key.brainId), [ab]);
    const counts = await getBrain(api, key, second.id);
    assert.equal(counts.snapshot_count, 2);
    assert.equal(counts.edge_count, 1);
    assert.equal((await getBrain(api, key, key.brainId)).edge_count, 1);
  });

  it('a hub snapshot with many edges: all go with it', async () => {
    const key = await newKey(api);
    const [hub, ...spokes] = await createSnapshots(api, key, 13);
    assert.ok(hub);
    for (const [i, s] of spokes.entries()) {
      const [source, target] = i % 2 === 0 ? [hub, s] : [s, hub];
      await createEdge(api, key, { source_id: source.id, target_id: target.id, edge_type: 'supports' });
    }
    const [s0, s1] = spokes as [Snapshot, Snapshot];
    const keep = await createEdge(api, key, { source_id: s0.id, target_id: s1.id, edge_type: 'supports' });
    assert.equal((await getBrain(api, key, key.brainId)).edge_count, 13);
    assert.equal((await api.request('DELETE', `/v1/snapshots/${hub.id}`, { key })).status, 200);
    assert.deepEqual(await brainEdges(api, key, key.brainId), [keep]);
    const counts = await getBrain(api, key, key.brainId);
    assert.equal(counts.snapshot_count, 12);
    assert.equal(counts.edge_count, 1);
  });

  it('another account cannot delete the snapshot (404) and its edges stay', async () => {
    const key = await newKey(api);
    const other = await newKey(api);
    const [A, B] = (await createSnapshots(api, key, 2)) as [Snapshot, Snapshot];
    const edge = await createEdge(api, key, { source_id: A.id, target_id: B.id, edge_type: 'supports' });
    assertError(await api.request('DELETE', `/v1/snapshots/${A.id}`, { key: other }), 404, 'NOT_FOUND');
    assert.deepEqual(await brainEdges(api, key, key.brainId), [edge]);
  });
});
