// POST /v1/snapshots: status, full body, defaults, service-set fields, round-trips and brains.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  assertError,
  BRAIN_ID,
  createBrain,
  createSnapshot,
  defaultsFor,
  fullBody,
  getSnapshot,
  ISO_MS,
  newKey,
  SNAP_ID,
  SNAPSHOT_FIELDS,
  SNAPSHOT_TYPES,
  T0,
  TEXT_FIELDS,
} from './fixtures.js';

describe('POST /v1/snapshots: create', () => {
  const clock = manualClock(T0);
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
  });
  after(() => api.close());

  it('answers 201 with {data: snapshot}: every field, the defaults and the service fields', async () => {
    clock.set(T0 + 1234);
    const res = await api.request('POST', '/v1/snapshots', {
      key,
      body: { name: 'Compounding', core: 'Small consistent gains compound over time' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(res.body), ['data']);
    const snapshot = res.body.data;
    assert.deepEqual(Object.keys(snapshot).sort(), SNAPSHOT_FIELDS);
    assert.match(snapshot.id, SNAP_ID);
    assert.match(snapshot.brain_id, BRAIN_ID);
    assert.equal(snapshot.brain_id, key.brainId);
    assert.match(snapshot.created_at, ISO_MS);
    assert.equal(snapshot.created_at, '2026-01-01T00:00:01.234Z');
    assert.equal(snapshot.updated_at, snapshot.created_at);
    assert.deepEqual(
      snapshot,
      defaultsFor(
        { id: snapshot.id, brain_id: key.brainId, created_at: snapshot.created_at, updated_at: snapshot.created_at },
        { name: 'Compounding', core: 'Small consistent gains compound over time' },
      ),
    );
  });

  it('stores what it returned: GET gives back the identical object', async () => {
    const created = await createSnapshot(api, key, { name: 'Stored', core: 'As returned' });
    const read = await api.request('GET', `/v1/snapshots/${created.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { data: created });
  });

  it('round-trips every settable field', async () => {
    clock.set(T0 + 5000);
    const body = fullBody();
    const created = await createSnapshot(api, key, body);
    const expected = {
      ...body,
      id: created.id,
      brain_id: key.brainId,
      source_type: 'manual',
      source_id: null,
      created_at: '2026-01-01T00:00:05.000Z',
      updated_at: '2026-01-01T00:00:05.000Z',
    };
    assert.deepEqual(created, expected);
    assert.deepEqual(await getSnapshot(api, key, created.id), expected);
  });

  for (const field of TEXT_FIELDS) {
    it(`sets ${field} alone; every other optional text field stays null`, async () => {
      const value = `${field} value: ünïcødé ✓ "quoted" \\ back\nslash`;
      const created = await createSnapshot(api, key, { name: 'One text', core: 'field', [field]: value });
      const expected = Object.fromEntries(TEXT_FIELDS.map((other) => [other, other === field ? value : null]));
      const read = await getSnapshot(api, key, created.id);
      for (const snapshot of [created, read]) {
        assert.deepEqual(Object.fromEntries(TEXT_FIELDS.map((other) => [other, snapshot[other]])), expected);
      }
    });
  }

  for (const type of SNAPSHOT_TYPES) {
    it(`accepts type ${type}`, async () => {
      const created = await createSnapshot(api, key, { name: 'Typed', core: 'typed', type });
      assert.equal(created.type, type);
      assert.equal((await getSnapshot(api, key, created.id)).type, type);
    });
  }

  const unitCases: [string, Record<string, unknown>, number, number][] = [
    ['confidence 0', { confidence: 0 }, 0, 0.5],
    ['confidence 1', { confidence: 1 }, 1, 0.5],
    ['significance_score 0', { significance_score: 0 }, 0.5, 0],
    ['significance_score 1', { significance_score: 1 }, 0.5, 1],
    ['both with many decimals', { confidence: 0.123456789, significance_score: 0.987654321 }, 0.123456789, 0.987654321],
  ];
  for (const [label, fields, confidence, significance] of unitCases) {
    it(`accepts ${label} and stores it exactly`, async () => {
      const created = await createSnapshot(api, key, { name: 'Scaled', core: 'scale', ...fields });
      const read = await getSnapshot(api, key, created.id);
      for (const snapshot of [created, read]) {
        assert.equal(snapshot.confidence, confidence);
        assert.equal(snapshot.significance_score, significance);
      }
    });
  }

  const emotions: [string, unknown][] = [
    ['an empty object', {}],
    ['a primary emotion with intensity', { primary: 'joy', intensity: 0.8 }],
    [
      'a nested object with arrays, booleans, nulls and unicode keys',
      {
        primary: 'awe',
        intensity: 1,
        layers: [{ name: 'wonder', weight: 0.25 }, 'fear', 3, true, null],
        ключ: 'значение 😀',
      },
    ],
    ['explicit null', null],
  ];
  for (const [label, emotion] of emotions) {
    it(`round-trips emotion: ${label}`, async () => {
      const created = await createSnapshot(api, key, { name: 'Felt', core: 'feeling', emotion });
      const read = await getSnapshot(api, key, created.id);
      assert.deepEqual(created.emotion, emotion);
      assert.deepEqual(read.emotion, emotion);
      // Key order is part of "exactly".
      assert.equal(JSON.stringify(read.emotion), JSON.stringify(emotion));
    });
  }

  it('stores tags in the order given; an explicit [] is []', async () => {
    const withTags = await createSnapshot(api, key, { name: 'Tagged', core: 'tags', tags: ['zeta', 'Alpha', 'ß-ü'] });
    assert.deepEqual((await getSnapshot(api, key, withTags.id)).tags, ['zeta', 'Alpha', 'ß-ü']);
    const empty = await createSnapshot(api, key, { name: 'Untagged', core: 'tags', tags: [] });
    assert.deepEqual((await getSnapshot(api, key, empty.id)).tags, []);
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await api.request('POST', '/v1/snapshots', {
      key,
      rawBody: JSON.stringify({ name: 'Charset', core: 'utf-8' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.name, 'Charset');
  });

  it('gives ids with a time-ordered part: a later snapshot sorts after an earlier one', async () => {
    clock.set(T0 + 10_000);
    const first = await createSnapshot(api, key, { name: 'Earlier', core: 'time' });
    clock.set(T0 + 10_001);
    const second = await createSnapshot(api, key, { name: 'Later', core: 'time' });
    clock.set(T0 + 86_400_000);
    const third = await createSnapshot(api, key, { name: 'Next day', core: 'time' });
    assert.ok(first.id < second.id, `${first.id} < ${second.id}`);
    assert.ok(second.id < third.id, `${second.id} < ${third.id}`);
  });

  it('gives distinct ids to snapshots created in the same millisecond', async () => {
    clock.set(T0 + 20_000);
    const ids = new Set<string>();
    for (let i = 0; i < 25; i++) {
      const created = await createSnapshot(api, key, { name: `Same ms ${i}`, core: 'same' });
      assert.match(created.id, SNAP_ID);
      assert.equal(created.created_at, '2026-01-01T00:00:20.000Z');
      ids.add(created.id);
    }
    assert.equal(ids.size, 25);
  });
});

describe('POST /v1/snapshots: brain_id', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let secondBrain: string;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
    other = await newKey(api);
    secondBrain = await createBrain(api, key);
  });
  after(() => api.close());

  it('without brain_id puts the snapshot in the key default brain', async () => {
    const created = await createSnapshot(api, key, { name: 'Default', core: 'brain' });
    assert.equal(created.brain_id, key.brainId);
  });

  it('with the default brain named explicitly puts it there', async () => {
    const created = await createSnapshot(api, key, { name: 'Explicit', core: 'brain', brain_id: key.brainId });
    assert.equal(created.brain_id, key.brainId);
    assert.equal((await getSnapshot(api, key, created.id)).brain_id, key.brainId);
  });

  it('with another brain of the same account puts it there', async () => {
    const created = await createSnapshot(api, key, { name: 'Elsewhere', core: 'brain', brain_id: secondBrain });
    assert.equal(created.brain_id, secondBrain);
    assert.deepEqual(Object.keys(created).sort(), SNAPSHOT_FIELDS);
    assert.equal((await getSnapshot(api, key, created.id)).brain_id, secondBrain);
    const listed = await api.request('GET', `/v1/snapshots?brain_id=${secondBrain}`, { key });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((s: { id: string }) => s.id),
      [created.id],
    );
  });

  it("with another account's brain is 404 NOT_FOUND and stores nothing", async () => {
    const res = await api.request('POST', '/v1/snapshots', {
      key,
      body: { name: 'Intruder', core: 'brain', brain_id: other.brainId },
    });
    assertError(res, 404, 'NOT_FOUND');
    const otherList = await api.request('GET', '/v1/snapshots', { key: other });
    assert.deepEqual(otherList.body, { data: [], count: 0 });
  });

  it('with an unknown brain id is 404 NOT_FOUND', async () => {
    const res = await api.request('POST', '/v1/snapshots', {
      key,
      body: { name: 'Nowhere', core: 'brain', brain_id: 'brain_01JZZZZZZZZZZZZZZZZZZZZZZZ' },
    });
    assertError(res, 404, 'NOT_FOUND');
  });

  it("answers another account's brain exactly like an unknown one", async () => {
    const foreign = await api.request('POST', '/v1/snapshots', {
      key,
      body: { name: 'X', core: 'Y', brain_id: other.brainId },
    });
    const unknown = await api.request('POST', '/v1/snapshots', {
      key,
      body: { name: 'X', core: 'Y', brain_id: 'brain_does_not_exist' },
    });
    assertError(foreign, 404, 'NOT_FOUND');
    assertError(unknown, 404, 'NOT_FOUND');
    assert.deepEqual(foreign.body.error, unknown.body.error);
  });
});
