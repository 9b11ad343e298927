// PUT /v1/snapshots/:id: partial updates, clearing with null, read-only fields, updated_at, and
// failed updates changing nothing.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  assertError,
  createBrain,
  createSnapshot,
  fullBody,
  getSnapshot,
  ISO_MS,
  LONG_TEXT_FIELDS,
  newKey,
  problemFields,
  READ_ONLY_FIELDS,
  SNAPSHOT_FIELDS,
  T0,
  TEXT_FIELDS,
} from './fixtures.js';

type Snap = Record<string, any>;
const iso = (ms: number) => new Date(ms).toISOString();

describe('PUT /v1/snapshots/:id: what changes', () => {
  const clock = manualClock(T0);
  let api: TestApi;
  let key: TestKey;
  let original: Snap;
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
  });
  beforeEach(async () => {
    clock.set(T0);
    original = await createSnapshot(api, key, fullBody());
    clock.set(T0 + 60_000);
  });
  after(() => api.close());

  async function put(body: unknown, id = original.id): Promise<Snap> {
    const res = await api.request('PUT', `/v1/snapshots/${id}`, { key, body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(Object.keys(res.body.data).sort(), SNAPSHOT_FIELDS);
    assert.deepEqual(await getSnapshot(api, key, id), res.body.data, 'the response is what was stored');
    return res.body.data;
  }

  const changes: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['name', { name: 'Renamed' }, { name: 'Renamed' }],
    ['name, stored trimmed', { name: '  Renamed  ' }, { name: 'Renamed' }],
    ['name of 200 characters padded with spaces', { name: ` ${'n'.repeat(200)} ` }, { name: 'n'.repeat(200) }],
    ['core', { core: 'A new core' }, { core: 'A new core' }],
    ['type', { type: 'Rule' }, { type: 'Rule' }],
    ['confidence to 0', { confidence: 0 }, { confidence: 0 }],
    ['significance_score to 1', { significance_score: 1 }, { significance_score: 1 }],
    ['emotion replaced as a whole', { emotion: { primary: 'anger' } }, { emotion: { primary: 'anger' } }],
    ['emotion to {}', { emotion: {} }, { emotion: {} }],
    ['emotion cleared with null', { emotion: null }, { emotion: null }],
    ['tags replaced entirely', { tags: ['new'] }, { tags: ['new'] }],
    ['tags trimmed and de-duplicated', { tags: [' x ', 'y', 'x'] }, { tags: ['x', 'y'] }],
    ['tags set to []', { tags: [] }, { tags: [] }],
    ['tags cleared with null, to []', { tags: null }, { tags: [] }],
    ['one_liner of 500 characters', { one_liner: 'o'.repeat(500) }, { one_liner: 'o'.repeat(500) }],
    ...TEXT_FIELDS.flatMap((field): [string, Record<string, unknown>, Record<string, unknown>][] => [
      [`${field} changed`, { [field]: `new ${field}` }, { [field]: `new ${field}` }],
      [`${field} cleared with null`, { [field]: null }, { [field]: null }],
    ]),
    [
      'several fields at once',
      { name: 'Many', story: null, tags: ['one'], confidence: 0.25 },
      { name: 'Many', story: null, tags: ['one'], confidence: 0.25 },
    ],
  ];
  for (const [label, body, expected] of changes) {
    it(`${label}: only the supplied fields change`, async () => {
      const updated = await put(body);
      assert.deepEqual(updated, { ...original, ...expected, updated_at: iso(T0 + 60_000) });
    });
  }

  it('a PUT of the fields with their current values still answers 200 and bumps updated_at', async () => {
    const updated = await put({ name: original.name, tags: original.tags });
    assert.deepEqual(updated, { ...original, updated_at: iso(T0 + 60_000) });
  });

  it('GET, change one field, PUT the whole object back: 200, that field changes', async () => {
    const current = await getSnapshot(api, key, original.id);
    const updated = await put({ ...current, risks: 'New risks' });
    assert.deepEqual(updated, { ...original, risks: 'New risks', updated_at: iso(T0 + 60_000) });
  });

  it('the whole object PUT back unchanged is accepted too', async () => {
    const current = await getSnapshot(api, key, original.id);
    const updated = await put(current);
    assert.deepEqual(updated, { ...current, updated_at: iso(T0 + 60_000) });
  });

  for (const field of READ_ONLY_FIELDS) {
    it(`${field} equal to the stored value is accepted alongside a change`, async () => {
      const updated = await put({ [field]: original[field], proof: 'more proof' });
      assert.deepEqual(updated, { ...original, proof: 'more proof', updated_at: iso(T0 + 60_000) });
    });
  }
});

describe('PUT /v1/snapshots/:id: timestamps', () => {
  const clock = manualClock(T0);
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
  });
  after(() => api.close());

  it('updated_at is the time of the update; created_at never changes', async () => {
    clock.set(T0);
    const created = await createSnapshot(api, key, { name: 'Timed', core: 'c' });
    clock.set(T0 + 3_600_000);
    const res = await api.request('PUT', `/v1/snapshots/${created.id}`, { key, body: { name: 'Timed 2' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.created_at, iso(T0));
    assert.equal(res.body.data.updated_at, iso(T0 + 3_600_000));
    assert.match(res.body.data.updated_at, ISO_MS);
    const read = await getSnapshot(api, key, created.id);
    assert.equal(read.created_at, iso(T0));
    assert.equal(read.updated_at, iso(T0 + 3_600_000));
  });

  it('updated_at strictly increases on every PUT, even several in the same millisecond', async () => {
    clock.set(T0 + 10_000_000);
    const created = await createSnapshot(api, key, { name: 'Frozen clock', core: 'c' });
    let previous = created.updated_at as string;
    for (let i = 0; i < 5; i++) {
      const res = await api.request('PUT', `/v1/snapshots/${created.id}`, { key, body: { story: `edit ${i}` } });
      assert.equal(res.status, 200);
      const { updated_at, created_at } = res.body.data;
      assert.match(updated_at, ISO_MS);
      assert.ok(Date.parse(updated_at) > Date.parse(previous), `${updated_at} > ${previous}`);
      assert.equal(created_at, created.created_at);
      assert.equal((await getSnapshot(api, key, created.id)).updated_at, updated_at);
      previous = updated_at;
    }
  });

  it('updated_at strictly increases even when the clock goes backwards', async () => {
    clock.set(T0 + 20_000_000);
    const created = await createSnapshot(api, key, { name: 'Backwards clock', core: 'c' });
    clock.set(T0 + 20_005_000);
    const first = await api.request('PUT', `/v1/snapshots/${created.id}`, { key, body: { story: 'one' } });
    assert.equal(first.body.data.updated_at, iso(T0 + 20_005_000));
    let previous = first.body.data.updated_at as string;
    for (const back of [1, 5_000, 3_600_000]) {
      clock.set(T0 + 20_005_000 - back);
      const res = await api.request('PUT', `/v1/snapshots/${created.id}`, { key, body: { story: `back ${back}` } });
      assert.equal(res.status, 200);
      assert.ok(
        Date.parse(res.body.data.updated_at) > Date.parse(previous),
        `${res.body.data.updated_at} > ${previous}`,
      );
      assert.equal(res.body.data.created_at, created.created_at);
      previous = res.body.data.updated_at;
    }
    assert.equal((await getSnapshot(api, key, created.id)).updated_at, previous);
  });

  it('updated_at never goes before created_at when the clock is behind the creation time', async () => {
    clock.set(T0 + 30_000_000);
    const created = await createSnapshot(api, key, { name: 'Future made', core: 'c' });
    clock.set(T0);
    const res = await api.request('PUT', `/v1/snapshots/${created.id}`, { key, body: { story: 'past' } });
    assert.equal(res.status, 200);
    assert.ok(Date.parse(res.body.data.updated_at) > Date.parse(created.created_at));
    assert.equal(res.body.data.created_at, created.created_at);
  });
});

describe('PUT /v1/snapshots/:id: rejected updates change nothing', () => {
  const clock = manualClock(T0);
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let otherBrain: string;
  let original: Snap;
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
    other = await newKey(api);
    otherBrain = await createBrain(api, key, 'Another brain of the same account');
    original = await createSnapshot(api, key, fullBody());
    clock.set(T0 + 1000);
  });
  after(() => api.close());

  async function assertUnchanged(): Promise<void> {
    assert.deepEqual(await getSnapshot(api, key, original.id), original);
  }

  const rejections: [string, unknown, string | RegExp][] = [
    ['an empty body {}', {}, /./],
    ['an unknown field', { foo: 1 }, 'foo'],
    ['an unknown field next to a valid change', { name: 'Changed', foo: 1 }, 'foo'],
    ['name null', { name: null }, 'name'],
    ['core null', { core: null }, 'core'],
    ['type null', { type: null }, 'type'],
    ['confidence null', { confidence: null }, 'confidence'],
    ['significance_score null', { significance_score: null }, 'significance_score'],
    ['name empty', { name: '' }, 'name'],
    ['name whitespace only', { name: '   ' }, 'name'],
    ['name 201 characters', { name: 'n'.repeat(201) }, 'name'],
    ['core empty', { core: '' }, 'core'],
    ['core 10,001 characters', { core: 'c'.repeat(10_001) }, 'core'],
    ['one_liner 501 characters', { one_liner: 'o'.repeat(501) }, 'one_liner'],
    ...LONG_TEXT_FIELDS.map((field): [string, unknown, string] => [
      `${field} 20,001 characters`,
      { [field]: 't'.repeat(20_001) },
      field,
    ]),
    ['type outside the enumeration', { type: 'Opinion' }, 'type'],
    ['confidence 1.01', { confidence: 1.01 }, 'confidence'],
    ['confidence "0.5"', { confidence: '0.5' }, 'confidence'],
    ['significance_score -0.01', { significance_score: -0.01 }, 'significance_score'],
    ['tags with 51 items', { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, /^tags/],
    ['a tag of 65 characters', { tags: ['t'.repeat(65)] }, /^tags/],
    ['a whitespace-only tag', { tags: ['ok', ' '] }, /^tags/],
    ['a non-string tag', { tags: [1] }, /^tags/],
    ['emotion an array', { emotion: ['joy'] }, 'emotion'],
    ['emotion a string', { emotion: 'joy' }, 'emotion'],
    ['emotion over 4 KiB', { emotion: { note: 'e'.repeat(5000) } }, 'emotion'],
    ['a valid change together with an invalid one', { name: 'Changed', confidence: 2 }, 'confidence'],
    ['a valid change together with a too-long name', { story: 'Changed', name: 'n'.repeat(201) }, 'name'],
  ];
  for (const [label, body, field] of rejections) {
    it(`${label}: 400 BAD_REQUEST and nothing changes`, async () => {
      const res = await api.request('PUT', `/v1/snapshots/${original.id}`, { key, body });
      assertError(res, 400, 'BAD_REQUEST', field);
      await assertUnchanged();
    });
  }

  const differentReadOnly: [string, () => unknown][] = [
    ['id', () => 'snap_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['brain_id', () => otherBrain],
    ['source_type', () => 'crystallize'],
    ['source_id', () => 'cry_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['created_at', () => '2025-06-01T12:00:00.000Z'],
    ['updated_at', () => '2030-01-01T00:00:00.000Z'],
  ];
  for (const [field, value] of differentReadOnly) {
    it(`a different ${field} is 400 naming ${field}, and nothing changes`, async () => {
      const res = await api.request('PUT', `/v1/snapshots/${original.id}`, {
        key,
        body: { [field]: value(), name: 'Should not stick' },
      });
      assertError(res, 400, 'BAD_REQUEST', field);
      await assertUnchanged();
    });

    it(`a different ${field} alone (no editable field) is 400 naming ${field}, not "nothing to update"`, async () => {
      const res = await api.request('PUT', `/v1/snapshots/${original.id}`, { key, body: { [field]: value() } });
      assertError(res, 400, 'BAD_REQUEST', field);
      await assertUnchanged();
    });

    it(`the whole object PUT back with a different ${field} is 400, and nothing changes`, async () => {
      const current = await getSnapshot(api, key, original.id);
      const res = await api.request('PUT', `/v1/snapshots/${original.id}`, {
        key,
        body: { ...current, story: 'Should not stick', [field]: value() },
      });
      assertError(res, 400, 'BAD_REQUEST', field);
      await assertUnchanged();
    });
  }

  it('a different brain_id of another account is 400 too, and nothing moves', async () => {
    const res = await api.request('PUT', `/v1/snapshots/${original.id}`, {
      key,
      body: { brain_id: other.brainId, name: 'Should not stick' },
    });
    assertError(res, 400, 'BAD_REQUEST', 'brain_id');
    await assertUnchanged();
  });

  it('an empty body {} is 400 "nothing to update" (design §3.5)', async () => {
    const res = await api.request('PUT', `/v1/snapshots/${original.id}`, { key, body: {} });
    assertError(res, 400, 'BAD_REQUEST');
    assert.match(res.body.error.message, /nothing to update/);
    await assertUnchanged();
  });

  it('read-only fields alone (nothing to update) are 400', async () => {
    const res = await api.request('PUT', `/v1/snapshots/${original.id}`, {
      key,
      body: { id: original.id, created_at: original.created_at },
    });
    assertError(res, 400, 'BAD_REQUEST');
    await assertUnchanged();
  });

  it('several problems are all listed', async () => {
    const res = await api.request('PUT', `/v1/snapshots/${original.id}`, {
      key,
      body: { type: 'Opinion', confidence: -1, foo: 'bar' },
    });
    assertError(res, 400, 'BAD_REQUEST', /^(type|confidence|foo)$/);
    assert.deepEqual(problemFields(res).sort(), ['confidence', 'foo', 'type']);
    await assertUnchanged();
  });

  it('several problems of different kinds (a whitespace-only name and an out-of-range confidence) are all listed', async () => {
    const res = await api.request('PUT', `/v1/snapshots/${original.id}`, {
      key,
      body: { name: '   ', confidence: 2 },
    });
    assertError(res, 400, 'BAD_REQUEST', /^(name|confidence)$/);
    assert.deepEqual(problemFields(res).sort(), ['confidence', 'name']);
    await assertUnchanged();
  });

  const badBodies: [string, { rawBody?: string; headers?: Record<string, string> }, number, string][] = [
    ['a missing body', {}, 400, 'BAD_REQUEST'],
    [
      'a JSON array',
      { rawBody: '[{"name":"x"}]', headers: { 'content-type': 'application/json' } },
      400,
      'BAD_REQUEST',
    ],
    ['JSON null', { rawBody: 'null', headers: { 'content-type': 'application/json' } }, 400, 'BAD_REQUEST'],
    [
      'malformed JSON',
      { rawBody: '{"name": "x"', headers: { 'content-type': 'application/json' } },
      400,
      'INVALID_JSON',
    ],
    [
      'a non-JSON content type',
      { rawBody: '{"name":"x"}', headers: { 'content-type': 'text/plain' } },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a body over 1 MiB',
      {
        rawBody: JSON.stringify({ story: 's'.repeat(1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      },
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];
  for (const [label, options, status, code] of badBodies) {
    it(`${label} is ${status} ${code}, and nothing changes`, async () => {
      const res = await api.request('PUT', `/v1/snapshots/${original.id}`, { key, ...options });
      assertError(res, status, code);
      await assertUnchanged();
    });
  }

  const missing: [string, () => string][] = [
    ['an unknown, well-formed id', () => 'snap_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['a garbage id', () => 'not-a-snapshot'],
    ['a deleted id', () => 'deleted'],
  ];
  for (const [label, id] of missing) {
    it(`PUT of ${label} is 404 NOT_FOUND`, async () => {
      let target = id();
      if (target === 'deleted') {
        const doomed = await createSnapshot(api, key, { name: 'Doomed', core: 'c' });
        assert.equal((await api.request('DELETE', `/v1/snapshots/${doomed.id}`, { key })).status, 200);
        target = doomed.id;
      }
      const res = await api.request('PUT', `/v1/snapshots/${target}`, { key, body: { name: 'Ghost' } });
      assertError(res, 404, 'NOT_FOUND');
    });
  }

  it("PUT of another account's snapshot is 404, exactly like an unknown id, and changes nothing", async () => {
    const foreign = await api.request('PUT', `/v1/snapshots/${original.id}`, { key: other, body: { name: 'Hijack' } });
    const unknown = await api.request('PUT', '/v1/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ', {
      key: other,
      body: { name: 'Hijack' },
    });
    assertError(foreign, 404, 'NOT_FOUND');
    assert.deepEqual(foreign.body.error, unknown.body.error);
    await assertUnchanged();
  });

  it('after every rejected PUT, a valid one still works and bumps updated_at once', async () => {
    const res = await api.request('PUT', `/v1/snapshots/${original.id}`, { key, body: { name: 'Finally' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, { ...original, name: 'Finally', updated_at: iso(T0 + 1000) });
  });
});
