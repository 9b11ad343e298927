// Edge pages are cached on the embedded store until the next write: every kind of write, through
// this application or another connection to the same database, shows in the very next list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { createEdge, createSnapshots, newKey, type Edge, type EdgeType, type Snapshot } from './fixtures.js';

type Requester = Pick<TestApi, 'request'>;

describe('GET /v1/edges after writes', () => {
  let api: TestApi;
  let other: Awaited<ReturnType<typeof connectTestApi>>;
  let key: TestKey;
  let snapshots: Snapshot[];

  before(async () => {
    api = await startTestApi();
    other = await connectTestApi(api.databasePath);
    key = await newKey(api);
    snapshots = await createSnapshots(api, key, 8);
  });
  after(async () => {
    await other?.close();
    await api?.close();
  });

  /** An edge between snapshots[from] and snapshots[to], through `through`. */
  const link = (from: number, to: number, edgeType: EdgeType, strength: number, through: Requester = api) =>
    createEdge(through as TestApi, key, {
      source_id: (snapshots[from] as Snapshot).id,
      target_id: (snapshots[to] as Snapshot).id,
      edge_type: edgeType,
      strength,
    });

  /** The pages a graph view reads: the whole brain, one type, a strength floor, one snapshot. */
  async function pages(through: Requester = api) {
    const read = async (query: string) => {
      const res = await through.request('GET', `/v1/edges?${query}`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { ids: (res.body.data as Edge[]).map((e) => e.id), total: res.body.total as number, body: res.body };
    };
    return {
      brain: await read(`brain_id=${key.brainId}&limit=200`),
      supports: await read(`brain_id=${key.brainId}&edge_type=supports&limit=200`),
      strong: await read(`brain_id=${key.brainId}&min_strength=0.6&limit=200`),
      ofFirst: await read(`snapshot_id=${(snapshots[0] as Snapshot).id}&limit=200`),
    };
  }

  it('shows a created edge in every page it belongs to, read twice (cached) before and after', async () => {
    await pages();
    const before = await pages();
    const edge = await link(0, 1, 'supports', 0.9);
    const afterCreate = await pages();
    for (const page of ['brain', 'supports', 'strong', 'ofFirst'] as const) {
      assert.deepEqual(afterCreate[page].ids, [edge.id, ...before[page].ids], page);
      assert.equal(afterCreate[page].total, before[page].total + 1, `${page} total`);
    }
  });

  it('shows an update, including one that moves an edge out of a filtered page', async () => {
    const edge = await link(2, 3, 'supports', 0.8);
    assert.ok((await pages()).strong.ids.includes(edge.id));
    const res = await api.request('PUT', `/v1/edges/${edge.id}`, {
      key,
      body: { strength: 0.2, edge_type: 'elaborates', label: 'weaker' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const now = await pages();
    assert.ok(!now.strong.ids.includes(edge.id), 'still in the min_strength page');
    assert.ok(!now.supports.ids.includes(edge.id), 'still in the supports page');
    const listed = (now.brain.body.data as Edge[]).find((e) => e.id === edge.id);
    assert.deepEqual(listed, res.body.data);
  });

  it('drops a deleted edge, and the edges of a deleted snapshot', async () => {
    const edge = await link(4, 0, 'contradicts', 0.7);
    const doomed = await link(5, 0, 'supports', 0.7);
    const before = await pages();
    assert.ok(before.ofFirst.ids.includes(edge.id) && before.ofFirst.ids.includes(doomed.id));

    assert.equal((await api.request('DELETE', `/v1/edges/${edge.id}`, { key })).status, 200);
    const afterEdgeDelete = await pages();
    assert.ok(!afterEdgeDelete.brain.ids.includes(edge.id));
    assert.equal(afterEdgeDelete.brain.total, before.brain.total - 1);

    assert.equal((await api.request('DELETE', `/v1/snapshots/${(snapshots[5] as Snapshot).id}`, { key })).status, 200);
    const afterSnapshotDelete = await pages();
    assert.ok(!afterSnapshotDelete.brain.ids.includes(doomed.id));
    assert.ok(!afterSnapshotDelete.ofFirst.ids.includes(doomed.id));
    assert.equal(afterSnapshotDelete.brain.total, before.brain.total - 2);
  });

  it('shows writes made through another connection to the same database at once', async () => {
    const before = await pages();
    const edge = await link(6, 7, 'supports', 1, other);
    const afterCreate = await pages();
    assert.deepEqual(afterCreate.brain.ids, [edge.id, ...before.brain.ids]);
    assert.deepEqual(afterCreate.supports.ids[0], edge.id);

    assert.equal((await other.request('DELETE', `/v1/edges/${edge.id}`, { key })).status, 200);
    assert.deepEqual((await pages()).brain.ids, before.brain.ids);
  });

  it("answers 404 at once for a deleted snapshot's page, kept or not, deleted here or elsewhere", async () => {
    const mine = await createSnapshots(api, key, 2);
    for (const [snapshot, through] of [
      [mine[0], api],
      [mine[1], other],
    ] as const) {
      const query = `/v1/edges?snapshot_id=${(snapshot as Snapshot).id}&limit=200`;
      for (let read = 0; read < 2; read++) assert.equal((await api.request('GET', query, { key })).status, 200);
      const deleted = await through.request('DELETE', `/v1/snapshots/${(snapshot as Snapshot).id}`, { key });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      const res = await api.request('GET', query, { key });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal((res.body.error as { code: string }).code, 'NOT_FOUND');
    }
  });

  it('never shows one account the pages of another, even for the same query', async () => {
    const stranger = await newKey(api);
    await pages();
    const res = await api.request('GET', `/v1/edges?brain_id=${key.brainId}&limit=200`, { key: stranger });
    assert.equal(res.status, 404, JSON.stringify(res.body));
  });
});
