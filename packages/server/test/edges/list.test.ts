import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  assertBadRequest,
  assertError,
  assertSameError,
  createBrain,
  createEdge,
  createSnapshot,
  createSnapshots,
  newKey,
  newestFirst,
  type Brain,
  type Edge,
  type EdgeType,
  type Snapshot,
} from './fixtures.js';

describe('GET /v1/edges: list', () => {
  const clock = manualClock();
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let second: Brain;
  let A: Snapshot, B: Snapshot, C: Snapshot, D: Snapshot, E: Snapshot, F: Snapshot;
  // e1 A->B supports .5, e2 C->A contradicts .9, e3 B->C elaborates .3, e4 A->D related_to .7,
  // e5 E->F supports 1 (second brain), e6 D->B supports .7. Each one millisecond after the last.
  let e1: Edge, e2: Edge, e3: Edge, e4: Edge, e5: Edge, e6: Edge;
  let theirSnapshot: Snapshot;

  const list = (query: string, k: TestKey = key, prefix = '/v1') =>
    api.request('GET', `${prefix}/edges?${query}`, { key: k });

  async function edge(source: Snapshot, target: Snapshot, edgeType: EdgeType, strength: number): Promise<Edge> {
    clock.advance(1);
    return createEdge(api, key, { source_id: source.id, target_id: target.id, edge_type: edgeType, strength });
  }

  function assertPage(res: Awaited<ReturnType<typeof list>>, expected: Edge[], total: number): void {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'total']);
    assert.deepEqual(
      res.body.data.map((e: Edge) => e.id),
      expected.map((e) => e.id),
    );
    assert.deepEqual(res.body.data, expected);
    assert.equal(res.body.total, total);
  }

  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
    other = await newKey(api);
    second = await createBrain(api, key, 'Second');
    [A, B, C, D] = (await createSnapshots(api, key, 4)) as [Snapshot, Snapshot, Snapshot, Snapshot];
    [E, F] = (await createSnapshots(api, key, 2, { brain_id: second.id })) as [Snapshot, Snapshot];
    theirSnapshot = await createSnapshot(api, other);
    e1 = await edge(A, B, 'supports', 0.5);
    e2 = await edge(C, A, 'contradicts', 0.9);
    e3 = await edge(B, C, 'elaborates', 0.3);
    e4 = await edge(A, D, 'related_to', 0.7);
    e5 = await edge(E, F, 'supports', 1);
    e6 = await edge(D, B, 'supports', 0.7);
  });
  after(() => api.close());

  it('by snapshot_id: incoming and outgoing edges, newest first', async () => {
    assertPage(await list(`snapshot_id=${A.id}`), [e4, e2, e1], 3);
    assertPage(await list(`snapshot_id=${B.id}`), [e6, e3, e1], 3);
    assertPage(await list(`snapshot_id=${F.id}`), [e5], 1);
  });

  it('a snapshot without edges: empty page, total 0', async () => {
    const lonely = await createSnapshot(api, key, { name: 'lonely' });
    assertPage(await list(`snapshot_id=${lonely.id}`), [], 0);
  });

  it('by brain_id: every edge of the brain and only that brain, newest first', async () => {
    assertPage(await list(`brain_id=${key.brainId}`), [e6, e4, e3, e2, e1], 5);
    assertPage(await list(`brain_id=${second.id}`), [e5], 1);
  });

  it('both given: snapshot_id wins over brain_id', async () => {
    // brain_id names a brain in which B has no edges; the result is still B's edges.
    assertPage(await list(`brain_id=${second.id}&snapshot_id=${B.id}`), [e6, e3, e1], 3);
    assertPage(await list(`snapshot_id=${E.id}&brain_id=${key.brainId}`), [e5], 1);
    // brain_id is not consulted at all when snapshot_id is given...
    assertPage(await list(`snapshot_id=${A.id}&brain_id=brain_01J00000000000000000000000`), [e4, e2, e1], 3);
    // ...and an unknown snapshot_id is a 404 even next to a valid brain_id.
    assertError(await list(`snapshot_id=snap_01J00000000000000000000000&brain_id=${key.brainId}`), 404, 'NOT_FOUND');
  });

  it('neither snapshot_id nor brain_id -> 400', async () => {
    assertError(await list(''), 400, 'BAD_REQUEST');
    assertError(await list('edge_type=supports&min_strength=0.5&limit=10'), 400, 'BAD_REQUEST');
    const bare = await api.request('GET', '/v1/edges', { key });
    assertError(bare, 400, 'BAD_REQUEST');
  });

  it('edge_type filter, on a brain and on a snapshot; total counts the filtered matches', async () => {
    assertPage(await list(`brain_id=${key.brainId}&edge_type=supports`), [e6, e1], 2);
    assertPage(await list(`snapshot_id=${A.id}&edge_type=contradicts`), [e2], 1);
    assertPage(await list(`snapshot_id=${A.id}&edge_type=related_to`), [e4], 1);
    assertPage(await list(`snapshot_id=${D.id}&edge_type=related_to`), [e4], 1);
    assertPage(await list(`brain_id=${key.brainId}&edge_type=evolved_from`), [], 0);
  });

  it('edge_type outside the six -> 400 listing them', async () => {
    const res = await list(`brain_id=${key.brainId}&edge_type=likes`);
    assertBadRequest(res, 'edge_type');
    for (const t of ['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to']) {
      assert.ok(res.body.error.message.includes(t), res.body.error.message);
    }
  });

  it('min_strength is inclusive: strength equal to min_strength is included', async () => {
    assertPage(await list(`brain_id=${key.brainId}&min_strength=0.7`), [e6, e4, e2], 3);
    assertPage(await list(`brain_id=${key.brainId}&min_strength=0.5`), [e6, e4, e2, e1], 4);
    assertPage(await list(`brain_id=${key.brainId}&min_strength=0.3`), [e6, e4, e3, e2, e1], 5);
    assertPage(await list(`brain_id=${key.brainId}&min_strength=0.91`), [], 0);
    assertPage(await list(`snapshot_id=${A.id}&min_strength=0.7`), [e4, e2], 2);
    assertPage(await list(`brain_id=${second.id}&min_strength=1`), [e5], 1);
    assertPage(await list(`brain_id=${key.brainId}&min_strength=0`), [e6, e4, e3, e2, e1], 5);
  });

  it('min_strength in any plain decimal spelling: .5, 0.50, 1.', async () => {
    assertPage(await list(`brain_id=${key.brainId}&min_strength=.5`), [e6, e4, e2, e1], 4);
    assertPage(await list(`brain_id=${key.brainId}&min_strength=0.50`), [e6, e4, e2, e1], 4);
    assertPage(await list(`brain_id=${second.id}&min_strength=1.`), [e5], 1);
  });

  it('edge_type and min_strength combine', async () => {
    assertPage(await list(`brain_id=${key.brainId}&edge_type=supports&min_strength=0.6`), [e6], 1);
    assertPage(await list(`snapshot_id=${B.id}&edge_type=supports&min_strength=0.5`), [e6, e1], 2);
  });

  for (const bad of ['-0.1', '1.1', 'abc', '', '0x1', '5e-1', 'Infinity']) {
    it(`min_strength=${bad || '(empty)'} -> 400`, async () => {
      assertBadRequest(await list(`brain_id=${key.brainId}&min_strength=${bad}`), 'min_strength');
    });
  }

  for (const [query, field] of [
    ['limit=201', 'limit'],
    ['limit=0', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1.5', 'offset'],
    ['offset=abc', 'offset'],
    ['offset=99999999999999999999', 'offset'],
    ['limit=0x10', 'limit'],
    ['limit=1e1', 'limit'],
    ['offset=%205', 'offset'],
  ] as const) {
    it(`${query} -> 400`, async () => {
      assertBadRequest(await list(`brain_id=${key.brainId}&${query}`), field);
      assertBadRequest(await list(`snapshot_id=${A.id}&${query}`), field);
    });
  }

  it('limit and offset page through the newest-first order; total stays the number of all matches', async () => {
    const all = [e6, e4, e3, e2, e1];
    assertPage(await list(`brain_id=${key.brainId}&limit=2`), all.slice(0, 2), 5);
    assertPage(await list(`brain_id=${key.brainId}&limit=2&offset=2`), all.slice(2, 4), 5);
    assertPage(await list(`brain_id=${key.brainId}&limit=2&offset=4`), all.slice(4), 5);
    assertPage(await list(`brain_id=${key.brainId}&offset=5`), [], 5);
    assertPage(await list(`brain_id=${key.brainId}&offset=1000`), [], 5);
    assertPage(await list(`brain_id=${key.brainId}&limit=1`), [e6], 5);
    assertPage(await list(`snapshot_id=${A.id}&limit=1&offset=1`), [e2], 3);
    assertPage(await list(`brain_id=${key.brainId}&edge_type=supports&limit=1&offset=1`), [e1], 2);
    assertPage(await list(`brain_id=${key.brainId}&limit=200`), all, 5);
  });

  it("unknown or another account's snapshot_id / brain_id -> 404, indistinguishable", async () => {
    const unknownSnap = await list('snapshot_id=snap_01J00000000000000000000000');
    assertError(unknownSnap, 404, 'NOT_FOUND');
    const theirSnap = await list(`snapshot_id=${theirSnapshot.id}`);
    assertError(theirSnap, 404, 'NOT_FOUND');
    assertSameError(unknownSnap, theirSnap);

    const unknownBrain = await list('brain_id=brain_01J00000000000000000000000');
    assertError(unknownBrain, 404, 'NOT_FOUND');
    const theirBrain = await list(`brain_id=${other.brainId}`);
    assertError(theirBrain, 404, 'NOT_FOUND');
    assertSameError(unknownBrain, theirBrain);

    // The other account sees none of this account's edges either.
    assertError(await list(`snapshot_id=${A.id}`, other), 404, 'NOT_FOUND');
    assertError(await list(`brain_id=${key.brainId}`, other), 404, 'NOT_FOUND');
    assertPage(await list(`brain_id=${other.brainId}`, other), [], 0);
  });

  it('/api/v1/edges lists the same', async () => {
    const v1 = await list(`brain_id=${key.brainId}&min_strength=0.5`);
    const api1 = await list(`brain_id=${key.brainId}&min_strength=0.5`, key, '/api/v1');
    assertPage(api1, v1.body.data, v1.body.total);
    assertPage(await list(`snapshot_id=${A.id}`, key, '/api/v1'), [e4, e2, e1], 3);
    assertError(await list('', key, '/api/v1'), 400, 'BAD_REQUEST');
  });

  it('401 without a key', async () => {
    const res = await api.request('GET', `/v1/edges?brain_id=${key.brainId}`);
    assertError(res, 401, 'UNAUTHORIZED');
  });
});

describe('GET /v1/edges: default and maximum limit, ties', () => {
  const clock = manualClock(Date.parse('2026-03-01T00:00:00.000Z'));
  let api: TestApi;
  let key: TestKey;
  let snaps: Snapshot[];
  let created: Edge[];
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
    snaps = await createSnapshots(api, key, 8);
    created = [];
    // 8 * 7 = 56 directed supports edges, one millisecond apart.
    for (const s of snaps) {
      for (const t of snaps) {
        if (s === t) continue;
        clock.advance(1);
        created.push(await createEdge(api, key, { source_id: s.id, target_id: t.id, edge_type: 'supports' }));
      }
    }
  });
  after(() => api.close());

  it('edge ids are time-ordered: each later edge has a greater id', async () => {
    for (let i = 1; i < created.length; i++) {
      assert.ok((created[i] as Edge).id > (created[i - 1] as Edge).id, `${i}`);
    }
  });

  it('limit defaults to 50; total is all 56 matches', async () => {
    const res = await api.request('GET', `/v1/edges?brain_id=${key.brainId}`, { key });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, 50);
    assert.equal(res.body.total, 56);
    assert.deepEqual(res.body.data, [...created].reverse().slice(0, 50));
  });

  it('limit=200 (the maximum) returns everything; offset=50 the last six', async () => {
    const all = await api.request('GET', `/v1/edges?brain_id=${key.brainId}&limit=200`, { key });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data, [...created].reverse());
    assert.equal(all.body.total, 56);
    const rest = await api.request('GET', `/v1/edges?brain_id=${key.brainId}&offset=50`, { key });
    assert.equal(rest.status, 200);
    assert.deepEqual(rest.body.data, [...created].reverse().slice(50));
    assert.equal(rest.body.total, 56);
  });

  it('by snapshot: total counts incoming and outgoing beyond the page', async () => {
    const s0 = snaps[0] as Snapshot;
    const res = await api.request('GET', `/v1/edges?snapshot_id=${s0.id}&limit=5`, { key });
    assert.equal(res.status, 200);
    const mine = [...created].reverse().filter((e) => e.source_id === s0.id || e.target_id === s0.id);
    assert.equal(mine.length, 14);
    assert.deepEqual(res.body.data, mine.slice(0, 5));
    assert.equal(res.body.total, 14);
    const page3 = await api.request('GET', `/v1/edges?snapshot_id=${s0.id}&limit=5&offset=10`, { key });
    assert.deepEqual(page3.body.data, mine.slice(10));
    assert.equal(page3.body.total, 14);
  });

  it('edges created in the same millisecond are ordered by id descending', async () => {
    const tieKey = await newKey(api);
    const [p, q, r] = (await createSnapshots(api, tieKey, 3)) as [Snapshot, Snapshot, Snapshot];
    clock.advance(1000);
    const tied: Edge[] = [];
    for (const [s, t, type] of [
      [p, q, 'supports'],
      [q, r, 'supports'],
      [r, p, 'supports'],
      [p, r, 'contradicts'],
      [q, p, 'elaborates'],
      [r, q, 'caused_by'],
    ] as [Snapshot, Snapshot, EdgeType][]) {
      tied.push(await createEdge(api, tieKey, { source_id: s.id, target_id: t.id, edge_type: type }));
    }
    assert.equal(new Set(tied.map((e) => e.created_at)).size, 1);
    const res = await api.request('GET', `/v1/edges?brain_id=${tieKey.brainId}`, { key: tieKey });
    assert.deepEqual(res.body.data, newestFirst(tied));
    const byP = await api.request('GET', `/v1/edges?snapshot_id=${p.id}`, { key: tieKey });
    assert.deepEqual(byP.body.data, newestFirst(tied.filter((e) => e.source_id === p.id || e.target_id === p.id)));
    // Pages over tied rows neither repeat nor skip.
    const pages = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const page = await api.request('GET', `/v1/edges?brain_id=${tieKey.brainId}&limit=2&offset=${offset}`, {
        key: tieKey,
      });
      pages.push(...page.body.data);
    }
    assert.deepEqual(pages, newestFirst(tied));
  });
});
