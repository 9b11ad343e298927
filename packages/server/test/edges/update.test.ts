import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  EDGE_TYPES,
  assertBadRequest,
  assertError,
  assertSameError,
  brainEdges,
  createBrain,
  createEdge,
  createSnapshot,
  iso,
  newKey,
  storedEdge,
  type Edge,
  type Snapshot,
} from './fixtures.js';

describe('PUT /v1/edges/:id', () => {
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
    const edge = await createEdge(api, key, {
      source_id: a.id,
      target_id: b.id,
      edge_type: 'supports',
      strength: 0.4,
      label: 'first',
    });
    return { key, a, b, edge };
  }

  const put = (key: TestKey, id: string, body: unknown, prefix = '/v1') =>
    api.request('PUT', `${prefix}/edges/${id}`, { key, body });

  it('changes edge_type, strength and label; new updated_at, everything else unchanged', async () => {
    const { key, edge } = await setup();
    clock.advance(5000);
    const res = await put(key, edge.id, { edge_type: 'elaborates', strength: 0.9, label: 'second' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const expected = {
      ...edge,
      edge_type: 'elaborates',
      strength: 0.9,
      label: 'second',
      updated_at: iso(clock.now()),
    };
    assert.deepEqual(res.body, { data: expected });
    assert.equal(res.body.data.created_at, edge.created_at);
    assert.ok(res.body.data.updated_at > edge.updated_at);
    assert.deepEqual(await storedEdge(api, key, edge), expected);
  });

  it('only the fields sent change', async () => {
    const { key, edge } = await setup();
    clock.advance(10);
    const s = await put(key, edge.id, { strength: 0.75 });
    assert.equal(s.status, 200, JSON.stringify(s.body));
    assert.deepEqual(s.body.data, { ...edge, strength: 0.75, updated_at: iso(clock.now()) });
    clock.advance(10);
    const l = await put(key, edge.id, { label: 'renamed' });
    assert.equal(l.status, 200, JSON.stringify(l.body));
    assert.deepEqual(l.body.data, { ...edge, strength: 0.75, label: 'renamed', updated_at: iso(clock.now()) });
    clock.advance(10);
    const t = await put(key, edge.id, { edge_type: 'caused_by' });
    assert.equal(t.status, 200, JSON.stringify(t.body));
    const expected = {
      ...edge,
      strength: 0.75,
      label: 'renamed',
      edge_type: 'caused_by',
      updated_at: iso(clock.now()),
    };
    assert.deepEqual(t.body.data, expected);
    assert.deepEqual(await storedEdge(api, key, edge), expected);
  });

  it('label null clears the label', async () => {
    const { key, edge } = await setup();
    const res = await put(key, edge.id, { label: null });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.label, null);
    assert.equal((await storedEdge(api, key, edge))?.label, null);
  });

  it('a label of 20,000 characters is accepted', async () => {
    const { key, edge } = await setup();
    const res = await put(key, edge.id, { label: 'z'.repeat(20_000) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await storedEdge(api, key, edge))?.label, 'z'.repeat(20_000));
  });

  it('strength 0 and 1 are accepted', async () => {
    const { key, edge } = await setup();
    const zero = await put(key, edge.id, { strength: 0 });
    assert.equal(zero.status, 200, JSON.stringify(zero.body));
    assert.equal(zero.body.data.strength, 0);
    const one = await put(key, edge.id, { strength: 1 });
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.data.strength, 1);
    assert.equal((await storedEdge(api, key, edge))?.strength, 1);
  });

  for (const edgeType of EDGE_TYPES) {
    it(`can change the type to ${edgeType}`, async () => {
      const key = await newKey(api);
      const a = await createSnapshot(api, key);
      const b = await createSnapshot(api, key);
      const from = edgeType === 'contradicts' ? 'supports' : 'contradicts';
      const edge = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: from });
      const res = await put(key, edge.id, { edge_type: edgeType });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.edge_type, edgeType);
      assert.equal((await storedEdge(api, key, edge))?.edge_type, edgeType);
    });
  }

  it('setting the type it already has is not a conflict with itself', async () => {
    const { key, edge } = await setup();
    const res = await put(key, edge.id, { edge_type: 'supports', strength: 0.6 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.strength, 0.6);
    const rel = await createEdge(api, key, {
      source_id: edge.target_id,
      target_id: edge.source_id,
      edge_type: 'related_to',
    });
    const res2 = await put(key, rel.id, { edge_type: 'related_to', label: 'still related' });
    assert.equal(res2.status, 200, JSON.stringify(res2.body));
  });

  describe('updated_at', () => {
    it('strictly increases for two PUTs in the same millisecond (clock not advancing)', async () => {
      const { key, edge } = await setup();
      const created = Date.parse(edge.created_at);
      assert.equal(clock.now(), created);
      const first = await put(key, edge.id, { strength: 0.1 });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const second = await put(key, edge.id, { strength: 0.2 });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      const u1 = Date.parse(first.body.data.updated_at);
      const u2 = Date.parse(second.body.data.updated_at);
      assert.ok(u1 > created, `${first.body.data.updated_at} > ${edge.created_at}`);
      assert.ok(u2 > u1, `${second.body.data.updated_at} > ${first.body.data.updated_at}`);
      assert.equal(first.body.data.created_at, edge.created_at);
      assert.equal(second.body.data.created_at, edge.created_at);
      assert.match(second.body.data.updated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.deepEqual(await storedEdge(api, key, edge), second.body.data);
    });

    it('strictly increases even when the clock goes backwards', async () => {
      const { key, edge } = await setup();
      clock.advance(100);
      const first = await put(key, edge.id, { strength: 0.1 });
      assert.equal(first.body.data.updated_at, iso(clock.now()));
      clock.advance(-60_000);
      const second = await put(key, edge.id, { strength: 0.2 });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.ok(second.body.data.updated_at > first.body.data.updated_at);
      clock.advance(60_000);
    });
  });

  describe('read-only fields', () => {
    it('GET, change one field, PUT the whole object back -> 200', async () => {
      const { key, edge } = await setup();
      const read = await storedEdge(api, key, edge);
      assert.ok(read);
      clock.advance(7);
      const res = await put(key, edge.id, { ...read, strength: 0.95 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.data, { ...read, strength: 0.95, updated_at: iso(clock.now()) });
    });

    it('each read-only field with the stored value is accepted', async () => {
      const { key, edge } = await setup();
      for (const field of ['id', 'brain_id', 'source_id', 'target_id', 'created_at', 'updated_at'] as const) {
        const current = await storedEdge(api, key, edge);
        assert.ok(current);
        const res = await put(key, edge.id, { [field]: current[field], label: `via ${field}` });
        assert.equal(res.status, 200, `${field}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.data.label, `via ${field}`);
      }
    });

    it('a different value for a read-only field -> 400 naming it, nothing changes', async () => {
      const { key, a, b, edge } = await setup();
      const c = await createSnapshot(api, key, { name: 'C' });
      const brain = await createBrain(api, key, 'Other');
      const changes: Record<string, unknown> = {
        id: 'edge_01J00000000000000000000000',
        brain_id: brain.id,
        source_id: c.id,
        target_id: c.id,
        created_at: '2020-01-01T00:00:00.000Z',
        updated_at: '2030-01-01T00:00:00.000Z',
      };
      for (const [field, value] of Object.entries(changes)) {
        const res = await put(key, edge.id, { strength: 0.99, label: 'changed', [field]: value });
        assertBadRequest(res, field, /read-only/);
        assert.deepEqual(await storedEdge(api, key, edge), edge, `${field} left the edge unchanged`);
      }
      for (const [field, value] of Object.entries(changes)) {
        const res = await put(key, edge.id, { [field]: value });
        assertBadRequest(res, field, /read-only/);
        assert.deepEqual(await storedEdge(api, key, edge), edge, `${field} alone left the edge unchanged`);
      }
      // swapping source and target is a change too
      const swap = await put(key, edge.id, { source_id: b.id, target_id: a.id });
      assertError(swap, 400, 'BAD_REQUEST');
      assert.deepEqual(await storedEdge(api, key, edge), edge);
    });
  });

  describe('validation: 400, nothing changes', () => {
    const cases: [string, unknown, string][] = [
      ['strength 1.1', { strength: 1.1 }, 'strength'],
      ['strength -0.1', { strength: -0.1 }, 'strength'],
      ['strength "0.5"', { strength: '0.5' }, 'strength'],
      ['strength null', { strength: null }, 'strength'],
      ['edge_type outside the six', { edge_type: 'likes' }, 'edge_type'],
      ['edge_type null', { edge_type: null }, 'edge_type'],
      ['label not a string', { label: 3 }, 'label'],
      ['label of 20,001 characters', { label: 'x'.repeat(20_001) }, 'label'],
      ['unknown field', { strength: 0.6, colour: 'red' }, 'colour'],
    ];
    for (const [name, body, field] of cases) {
      it(`${name} -> 400 naming ${field}`, async () => {
        const { key, edge } = await setup();
        assertBadRequest(await put(key, edge.id, body), field);
        assert.deepEqual(await storedEdge(api, key, edge), edge);
      });
    }

    it('an empty body {} -> 400 "nothing to update" (design §3.5)', async () => {
      const { key, edge } = await setup();
      const res = await put(key, edge.id, {});
      assertError(res, 400, 'BAD_REQUEST');
      assert.match(res.body.error.message, /nothing to update/);
      assert.deepEqual(await storedEdge(api, key, edge), edge);
    });

    it('no body at all, or a JSON array -> 400', async () => {
      const { key, edge } = await setup();
      assertError(await api.request('PUT', `/v1/edges/${edge.id}`, { key }), 400, 'BAD_REQUEST');
      assertError(await put(key, edge.id, [{ strength: 0.1 }]), 400, 'BAD_REQUEST');
      assert.deepEqual(await storedEdge(api, key, edge), edge);
    });

    it('400 before 404: an invalid body for an unknown edge -> 400', async () => {
      const { key } = await setup();
      assertBadRequest(await put(key, 'edge_01J00000000000000000000000', { strength: 2 }), 'strength');
    });
  });

  describe('404', () => {
    it("an unknown edge, or another account's edge -> 404, indistinguishable; theirs unchanged", async () => {
      const { key } = await setup();
      const theirs = await setup();
      const unknown = await put(key, 'edge_01J00000000000000000000000', { strength: 0.1 });
      assertError(unknown, 404, 'NOT_FOUND');
      const other = await put(key, theirs.edge.id, { strength: 0.1 });
      assertError(other, 404, 'NOT_FOUND');
      assertSameError(unknown, other);
      assert.deepEqual(await storedEdge(api, theirs.key, theirs.edge), theirs.edge);
    });

    it('a deleted edge -> 404', async () => {
      const { key, edge } = await setup();
      const del = await api.request('DELETE', `/v1/edges/${edge.id}`, { key });
      assert.equal(del.status, 200);
      assertError(await put(key, edge.id, { strength: 0.1 }), 404, 'NOT_FOUND');
    });
  });

  describe('409: a PUT that would create a duplicate', () => {
    it('changing the type of A->B to a type A->B already has -> 409, nothing changes', async () => {
      const { key, a, b, edge } = await setup();
      const other = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'contradicts' });
      const res = await put(key, other.id, { edge_type: 'supports', strength: 0.8, label: 'dup' });
      assertError(res, 409, 'CONFLICT');
      const stored = await brainEdges(api, key, key.brainId);
      assert.deepEqual(stored.map((e) => e.id).sort(), [edge.id, other.id].sort());
      assert.deepEqual(await storedEdge(api, key, other), other);
      assert.deepEqual(await storedEdge(api, key, edge), edge);
    });

    it('changing A->B to related_to when B related_to A exists -> 409, nothing changes', async () => {
      const { key, a, b, edge } = await setup();
      const reverse = await createEdge(api, key, { source_id: b.id, target_id: a.id, edge_type: 'related_to' });
      const res = await put(key, edge.id, { edge_type: 'related_to' });
      assertError(res, 409, 'CONFLICT');
      assert.deepEqual(await storedEdge(api, key, edge), edge);
      assert.deepEqual(await storedEdge(api, key, reverse), reverse);
    });

    it('changing B->A to supports when A supports B exists is fine (directional)', async () => {
      const { key, a, b } = await setup();
      const reverse = await createEdge(api, key, { source_id: b.id, target_id: a.id, edge_type: 'elaborates' });
      const res = await put(key, reverse.id, { edge_type: 'supports' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.edge_type, 'supports');
    });

    it('changing A->B to related_to without any reverse related_to is fine', async () => {
      const { key, edge } = await setup();
      const res = await put(key, edge.id, { edge_type: 'related_to' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.edge_type, 'related_to');
    });

    it('racing PUTs that both turn edges into the same duplicate: one 200, one 409', async () => {
      const { key, a, b } = await setup();
      const x = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'caused_by' });
      const y = await createEdge(api, key, { source_id: b.id, target_id: a.id, edge_type: 'evolved_from' });
      const results = await Promise.all([
        put(key, x.id, { edge_type: 'related_to' }),
        put(key, y.id, { edge_type: 'related_to' }),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
      const related = (await brainEdges(api, key, key.brainId)).filter((e) => e.edge_type === 'related_to');
      assert.equal(related.length, 1);
    });

    it('409 after 400: read-only change and duplicate type together -> 400', async () => {
      const { key, a, b } = await setup();
      const other = await createEdge(api, key, { source_id: a.id, target_id: b.id, edge_type: 'contradicts' });
      const res = await put(key, other.id, { edge_type: 'supports', id: 'edge_01J00000000000000000000000' });
      assertBadRequest(res, 'id');
    });
  });

  it('/api/v1/edges/:id updates the same edge', async () => {
    const { key, edge } = await setup();
    clock.advance(3);
    const res = await put(key, edge.id, { strength: 0.33, label: null }, '/api/v1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { ...edge, strength: 0.33, label: null, updated_at: iso(clock.now()) });
    assertError(await put(key, edge.id, {}, '/api/v1'), 400, 'BAD_REQUEST');
    assertError(await put(key, 'edge_01J00000000000000000000000', { strength: 0.1 }, '/api/v1'), 404, 'NOT_FOUND');
  });
});
