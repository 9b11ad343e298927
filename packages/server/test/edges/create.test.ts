import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  EDGE_ID,
  EDGE_KEYS,
  EDGE_TYPES,
  ISO_MS,
  assertBadRequest,
  assertError,
  assertSameError,
  brainEdges,
  createBrain,
  createSnapshot,
  getBrain,
  iso,
  newKey,
  type Snapshot,
} from './fixtures.js';

describe('POST /v1/edges: create', () => {
  const clock = manualClock();
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ clock });
  });
  after(() => api.close());

  async function pair(key: TestKey): Promise<[Snapshot, Snapshot]> {
    const a = await createSnapshot(api, key, { name: 'A' });
    const b = await createSnapshot(api, key, { name: 'B' });
    return [a, b];
  }

  it('returns 201 with the full edge: defaults, brain_id from the snapshots, timestamps', async () => {
    const key = await newKey(api);
    const [a, b] = await pair(key);
    clock.advance(1234);
    const now = clock.now();
    const res = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: a.id, target_id: b.id, edge_type: 'supports' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['data']);
    const edge = res.body.data;
    assert.match(edge.id, EDGE_ID);
    assert.deepEqual(edge, {
      id: edge.id,
      brain_id: key.brainId,
      source_id: a.id,
      target_id: b.id,
      edge_type: 'supports',
      strength: 0.5,
      label: null,
      origin: 'manual',
      created_at: iso(now),
      updated_at: iso(now),
    });
    assert.deepEqual(Object.keys(edge).sort(), EDGE_KEYS);
    assert.match(edge.created_at, ISO_MS);
    // Stored exactly as returned.
    assert.deepEqual(await brainEdges(api, key, key.brainId), [edge]);
  });

  it('stores the given strength and label, including the bounds 0 and 1 and a 20,000-character label', async () => {
    const key = await newKey(api);
    const [a, b] = await pair(key);
    const res = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: a.id, target_id: b.id, edge_type: 'elaborates', strength: 0.83, label: 'adds the math' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.strength, 0.83);
    assert.equal(res.body.data.label, 'adds the math');
    const zero = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: a.id, target_id: b.id, edge_type: 'supports', strength: 0 },
    });
    assert.equal(zero.status, 201, JSON.stringify(zero.body));
    assert.equal(zero.body.data.strength, 0);
    const one = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: a.id, target_id: b.id, edge_type: 'contradicts', strength: 1, label: null },
    });
    assert.equal(one.status, 201, JSON.stringify(one.body));
    assert.equal(one.body.data.strength, 1);
    assert.equal(one.body.data.label, null);
    const longest = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: b.id, target_id: a.id, edge_type: 'supports', label: 'y'.repeat(20_000) },
    });
    assert.equal(longest.status, 201, JSON.stringify(longest.body));
    assert.equal(longest.body.data.label.length, 20_000);
    const stored = await brainEdges(api, key, key.brainId);
    assert.deepEqual(stored.map((e) => [e.edge_type, e.strength, e.label]).sort(), [
      ['contradicts', 1, null],
      ['elaborates', 0.83, 'adds the math'],
      ['supports', 0, null],
      ['supports', 0.5, 'y'.repeat(20_000)],
    ]);
  });

  for (const edgeType of EDGE_TYPES) {
    it(`creates an edge of type ${edgeType}`, async () => {
      const key = await newKey(api);
      const [a, b] = await pair(key);
      const res = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: a.id, target_id: b.id, edge_type: edgeType },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.edge_type, edgeType);
      assert.equal(res.body.data.source_id, a.id);
      assert.equal(res.body.data.target_id, b.id);
      const stored = await brainEdges(api, key, key.brainId);
      assert.deepEqual(stored, [res.body.data]);
    });
  }

  it('takes brain_id from the snapshots when they live in a non-default brain', async () => {
    const key = await newKey(api);
    const brain = await createBrain(api, key, 'Research');
    const a = await createSnapshot(api, key, { name: 'A', brain_id: brain.id });
    const b = await createSnapshot(api, key, { name: 'B', brain_id: brain.id });
    const res = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: a.id, target_id: b.id, edge_type: 'caused_by' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.brain_id, brain.id);
    assert.deepEqual(await brainEdges(api, key, brain.id), [res.body.data]);
    assert.deepEqual(await brainEdges(api, key, key.brainId), []);
    assert.equal((await getBrain(api, key, brain.id)).edge_count, 1);
    assert.equal((await getBrain(api, key, key.brainId)).edge_count, 0);
  });

  describe('validation: 400 BAD_REQUEST, nothing stored', () => {
    let key: TestKey;
    let a: Snapshot;
    let b: Snapshot;
    before(async () => {
      key = await newKey(api);
      [a, b] = await pair(key);
    });

    const cases: [string, (a: Snapshot, b: Snapshot) => unknown, string, RegExp?][] = [
      ['missing source_id', (_a, b) => ({ target_id: b.id, edge_type: 'supports' }), 'source_id', /required/],
      ['missing target_id', (a) => ({ source_id: a.id, edge_type: 'supports' }), 'target_id', /required/],
      ['missing edge_type', (a, b) => ({ source_id: a.id, target_id: b.id }), 'edge_type', /required/],
      ['edge_type outside the six', (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'likes' }), 'edge_type'],
      [
        'edge_type in the wrong case',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'Supports' }),
        'edge_type',
      ],
      [
        'strength -0.1',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', strength: -0.1 }),
        'strength',
      ],
      [
        'strength 1.1',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', strength: 1.1 }),
        'strength',
      ],
      [
        'strength as the string "0.5"',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', strength: '0.5' }),
        'strength',
      ],
      [
        'strength null',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', strength: null }),
        'strength',
      ],
      [
        'label of 20,001 characters',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', label: 'x'.repeat(20_001) }),
        'label',
      ],
      [
        'label that is not a string',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', label: 42 }),
        'label',
      ],
      ['unknown field', (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', weight: 0.5 }), 'weight'],
      [
        'read-only id',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', id: 'edge_01HZZZZZZZZZZZZZZZZZZZZZZZ' }),
        'id',
      ],
      [
        'read-only brain_id (even the right one)',
        (a, b) => ({ source_id: a.id, target_id: b.id, edge_type: 'supports', brain_id: a.brain_id }),
        'brain_id',
      ],
      [
        'read-only created_at',
        (a, b) => ({
          source_id: a.id,
          target_id: b.id,
          edge_type: 'supports',
          created_at: '2026-01-01T00:00:00.000Z',
        }),
        'created_at',
      ],
      [
        'read-only updated_at',
        (a, b) => ({
          source_id: a.id,
          target_id: b.id,
          edge_type: 'supports',
          updated_at: '2026-01-01T00:00:00.000Z',
        }),
        'updated_at',
      ],
      [
        'source_id that is not a string',
        (_a, b) => ({ source_id: 7, target_id: b.id, edge_type: 'supports' }),
        'source_id',
      ],
    ];

    for (const [name, body, field, reason] of cases) {
      it(`${name} -> 400 naming ${field}`, async () => {
        const res = await api.request('POST', '/v1/edges', { key, body: body(a, b) });
        assertBadRequest(res, field, reason);
        assert.deepEqual(await brainEdges(api, key, key.brainId), []);
      });
    }

    it('an unknown edge_type lists the six allowed values in the message', async () => {
      const res = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: a.id, target_id: b.id, edge_type: 'likes' },
      });
      assertBadRequest(res, 'edge_type');
      for (const type of EDGE_TYPES) {
        assert.ok(res.body.error.message.includes(type), `message lists ${type}: ${res.body.error.message}`);
      }
    });

    it('several missing fields: details.errors names each of them', async () => {
      const res = await api.request('POST', '/v1/edges', { key, body: { label: 'x' } });
      assertError(res, 400, 'BAD_REQUEST');
      const fields = res.body.error.details.errors.map((e: { field: string }) => e.field).sort();
      assert.deepEqual(fields, ['edge_type', 'source_id', 'target_id']);
    });

    it('a body that is not a JSON object -> 400', async () => {
      const res = await api.request('POST', '/v1/edges', { key, body: [a.id, b.id, 'supports'] });
      assertError(res, 400, 'BAD_REQUEST');
      const empty = await api.request('POST', '/v1/edges', { key });
      assertError(empty, 400, 'BAD_REQUEST');
      assert.deepEqual(await brainEdges(api, key, key.brainId), []);
    });

    it('validation answers before existence: invalid body with unknown snapshots -> 400, not 404', async () => {
      const res = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: 'snap_nope', target_id: 'snap_nope2', edge_type: 'nope' },
      });
      assertBadRequest(res, 'edge_type');
    });
  });

  describe('404, 422 and their order', () => {
    it('a missing source or target snapshot -> 404 NOT_FOUND', async () => {
      const key = await newKey(api);
      const a = await createSnapshot(api, key);
      const missingTarget = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: a.id, target_id: 'snap_01J00000000000000000000000', edge_type: 'supports' },
      });
      assertError(missingTarget, 404, 'NOT_FOUND');
      const missingSource = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: 'snap_01J00000000000000000000000', target_id: a.id, edge_type: 'supports' },
      });
      assertError(missingSource, 404, 'NOT_FOUND');
      assert.deepEqual(await brainEdges(api, key, key.brainId), []);
    });

    it("another account's snapshot (source or target) -> 404, same body as a missing one", async () => {
      const key = await newKey(api);
      const other = await newKey(api);
      const mine = await createSnapshot(api, key, { name: 'mine' });
      const theirs = await createSnapshot(api, other, { name: 'theirs' });
      const theirs2 = await createSnapshot(api, other, { name: 'theirs 2' });

      const asTarget = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: mine.id, target_id: theirs.id, edge_type: 'supports' },
      });
      assertError(asTarget, 404, 'NOT_FOUND');
      const missingTarget = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: mine.id, target_id: 'snap_01J00000000000000000000000', edge_type: 'supports' },
      });
      assertSameError(asTarget, missingTarget);

      const asSource = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: theirs.id, target_id: mine.id, edge_type: 'supports' },
      });
      assertError(asSource, 404, 'NOT_FOUND');
      const missingSource = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: 'snap_01J00000000000000000000000', target_id: mine.id, edge_type: 'supports' },
      });
      assertSameError(asSource, missingSource);

      // Both snapshots of the other account: still 404, and nothing lands in either account.
      const both = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: theirs.id, target_id: theirs2.id, edge_type: 'supports' },
      });
      assertError(both, 404, 'NOT_FOUND');
      assert.deepEqual(await brainEdges(api, key, key.brainId), []);
      assert.deepEqual(await brainEdges(api, other, other.brainId), []);
    });

    it('snapshots in two different brains of the same account -> 422 UNPROCESSABLE', async () => {
      const key = await newKey(api);
      const second = await createBrain(api, key, 'Second');
      const a = await createSnapshot(api, key, { name: 'A' });
      const c = await createSnapshot(api, key, { name: 'C', brain_id: second.id });
      assert.equal(c.brain_id, second.id);
      for (const body of [
        { source_id: a.id, target_id: c.id, edge_type: 'supports' },
        { source_id: c.id, target_id: a.id, edge_type: 'related_to' },
      ]) {
        const res = await api.request('POST', '/v1/edges', { key, body });
        assertError(res, 422, 'UNPROCESSABLE');
      }
      assert.deepEqual(await brainEdges(api, key, key.brainId), []);
      assert.deepEqual(await brainEdges(api, key, second.id), []);
    });

    it('a self-loop (source == target) -> 422 UNPROCESSABLE', async () => {
      const key = await newKey(api);
      const a = await createSnapshot(api, key);
      for (const edgeType of EDGE_TYPES) {
        const res = await api.request('POST', '/v1/edges', {
          key,
          body: { source_id: a.id, target_id: a.id, edge_type: edgeType },
        });
        assertError(res, 422, 'UNPROCESSABLE');
      }
      assert.deepEqual(await brainEdges(api, key, key.brainId), []);
    });

    it('404 before 422: a missing target with a source in another brain -> 404', async () => {
      const key = await newKey(api);
      const second = await createBrain(api, key, 'Second');
      const c = await createSnapshot(api, key, { brain_id: second.id });
      const res = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: c.id, target_id: 'snap_01J00000000000000000000000', edge_type: 'supports' },
      });
      assertError(res, 404, 'NOT_FOUND');
      // Another account's target, whose brain differs from the source's as well: still 404.
      const other = await newKey(api);
      const theirs = await createSnapshot(api, other);
      const res2 = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: c.id, target_id: theirs.id, edge_type: 'supports' },
      });
      assertError(res2, 404, 'NOT_FOUND');
    });

    it('404 before 422 for a self-loop on a missing snapshot', async () => {
      const key = await newKey(api);
      const res = await api.request('POST', '/v1/edges', {
        key,
        body: {
          source_id: 'snap_01J00000000000000000000000',
          target_id: 'snap_01J00000000000000000000000',
          edge_type: 'supports',
        },
      });
      assertError(res, 404, 'NOT_FOUND');
    });
  });

  describe('request-level errors', () => {
    let key: TestKey;
    let a: Snapshot;
    let b: Snapshot;
    before(async () => {
      key = await newKey(api);
      [a, b] = await pair(key);
    });

    it('application/json with a charset parameter is accepted', async () => {
      const res = await api.request('POST', '/v1/edges', {
        key,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        rawBody: JSON.stringify({ source_id: a.id, target_id: b.id, edge_type: 'caused_by' }),
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    });

    it('malformed JSON -> 400 INVALID_JSON', async () => {
      const res = await api.request('POST', '/v1/edges', {
        key,
        headers: { 'content-type': 'application/json' },
        rawBody: `{"source_id": "${a.id}", "target_id": `,
      });
      assertError(res, 400, 'INVALID_JSON');
    });

    it('a body that is not application/json -> 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const res = await api.request('POST', '/v1/edges', {
        key,
        headers: { 'content-type': 'text/plain' },
        rawBody: JSON.stringify({ source_id: a.id, target_id: b.id, edge_type: 'supports' }),
      });
      assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('a body over 1 MiB -> 413 PAYLOAD_TOO_LARGE', async () => {
      const res = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: a.id, target_id: b.id, edge_type: 'supports', label: 'x'.repeat(1024 * 1024 + 10) },
      });
      assertError(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('401 before 400: no key and an invalid body -> 401', async () => {
      const res = await api.request('POST', '/v1/edges', { body: { edge_type: 'nope' } });
      assertError(res, 401, 'UNAUTHORIZED');
    });

    it('an unsupported method on /v1/edges/:id -> 405 METHOD_NOT_ALLOWED with Allow', async () => {
      const res = await api.request('PATCH', '/v1/edges/edge_01J00000000000000000000000', {
        key,
        body: { strength: 0.1 },
      });
      assertError(res, 405, 'METHOD_NOT_ALLOWED');
      const allow = String(res.headers.allow)
        .split(',')
        .map((m) => m.trim());
      assert.ok(allow.includes('PUT') && allow.includes('DELETE'), String(res.headers.allow));
    });

    it('nothing was stored by any of these requests but the first', async () => {
      const stored = await brainEdges(api, key, key.brainId);
      assert.deepEqual(
        stored.map((e) => e.edge_type),
        ['caused_by'],
      );
    });
  });

  it('401 UNAUTHORIZED without a key, with WWW-Authenticate: Bearer', async () => {
    const res = await api.request('POST', '/v1/edges', {
      body: { source_id: 'snap_x', target_id: 'snap_y', edge_type: 'supports' },
    });
    assertError(res, 401, 'UNAUTHORIZED');
    assert.match(String(res.headers['www-authenticate']), /^Bearer/);
  });

  it('/api/v1/edges creates the same edge as /v1/edges', async () => {
    const key = await newKey(api);
    const [a, b] = await pair(key);
    const now = clock.now();
    const res = await api.request('POST', '/api/v1/edges', {
      key,
      body: { source_id: a.id, target_id: b.id, edge_type: 'evolved_from', label: 'v2' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      data: {
        id: res.body.data.id,
        brain_id: key.brainId,
        source_id: a.id,
        target_id: b.id,
        edge_type: 'evolved_from',
        strength: 0.5,
        label: 'v2',
        origin: 'manual',
        created_at: iso(now),
        updated_at: iso(now),
      },
    });
    assert.deepEqual(await brainEdges(api, key, key.brainId), [res.body.data]);
    const bad = await api.request('POST', '/api/v1/edges', {
      key,
      body: { source_id: a.id, target_id: b.id, edge_type: 'evolved_from', strength: 2 },
    });
    assertBadRequest(bad, 'strength');
  });
});
