import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { createBrain as createBrainDirectly } from '../../src/domain/brains/index.js';
import {
  BRAIN_ID,
  ISO_MS,
  assertBadRequest,
  assertError,
  assertSameError,
  createBrain,
  createEdge,
  createSnapshot,
  createSnapshots,
  getBrain,
  iso,
  newKey,
  newestFirst,
  type Brain,
  type Snapshot,
} from '../edges/fixtures.js';

const BRAIN_KEYS = [
  'account_id',
  'auto_link',
  'created_at',
  'edge_count',
  'id',
  'memory_count',
  'name',
  'pending_work',
  'snapshot_count',
  'updated_at',
];

describe('POST /v1/brains', () => {
  const clock = manualClock();
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
  });
  after(() => api.close());

  const post = (body: unknown, prefix = '/v1') => api.request('POST', `${prefix}/brains`, { key, body });

  it('201 with the full brain, the name trimmed, zero counts', async () => {
    clock.advance(42);
    const res = await post({ name: '  Research notes \t' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['data']);
    const brain = res.body.data;
    assert.match(brain.id, BRAIN_ID);
    assert.deepEqual(brain, {
      id: brain.id,
      account_id: key.accountId,
      name: 'Research notes',
      auto_link: false,
      snapshot_count: 0,
      edge_count: 0,
      memory_count: 0,
      pending_work: { auto_link: 0, embeddings: 0 },
      created_at: iso(clock.now()),
      updated_at: iso(clock.now()),
    });
    assert.deepEqual(Object.keys(brain).sort(), BRAIN_KEYS);
    assert.match(brain.created_at, ISO_MS);
    const read = await api.request('GET', `/v1/brains/${brain.id}`, { key });
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(read.body, res.body);
  });

  it('200 characters (after trimming) is the maximum; characters, not UTF-16 units', async () => {
    const max = await post({ name: ` ${'x'.repeat(200)} ` });
    assert.equal(max.status, 201, JSON.stringify(max.body));
    assert.equal(max.body.data.name, 'x'.repeat(200));
    const emoji = await post({ name: '\u{1F9E0}'.repeat(200) });
    assert.equal(emoji.status, 201, JSON.stringify(emoji.body));
    assert.equal(emoji.body.data.name, '\u{1F9E0}'.repeat(200));
    assertBadRequest(await post({ name: '\u{1F9E0}'.repeat(201) }), 'name');
    const one = await post({ name: 'a' });
    assert.equal(one.status, 201, JSON.stringify(one.body));
  });

  it('two brains may share a name', async () => {
    const first = await post({ name: 'Same' });
    const second = await post({ name: 'Same' });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.notEqual(first.body.data.id, second.body.data.id);
  });

  const invalid: [string, unknown, string][] = [
    ['an empty name', { name: '' }, 'name'],
    ['a whitespace-only name', { name: ' \t\n ' }, 'name'],
    ['a 201-character name', { name: 'x'.repeat(201) }, 'name'],
    ['a missing name', {}, 'name'],
    ['a null name', { name: null }, 'name'],
    ['a numeric name', { name: 7 }, 'name'],
    ['an unknown field', { name: 'ok', color: 'blue' }, 'color'],
    ['a read-only id', { name: 'ok', id: 'brain_01J00000000000000000000000' }, 'id'],
    ['a read-only account_id', { name: 'ok', account_id: 'acct_01J00000000000000000000000' }, 'account_id'],
    ['a read-only created_at', { name: 'ok', created_at: '2026-01-01T00:00:00.000Z' }, 'created_at'],
    ['a snapshot_count', { name: 'ok', snapshot_count: 0 }, 'snapshot_count'],
  ];
  for (const [what, body, field] of invalid) {
    it(`${what} -> 400 naming ${field}, nothing created`, async () => {
      const before = await api.request('GET', '/v1/brains?limit=100', { key });
      assertBadRequest(await post(body), field);
      const after = await api.request('GET', '/v1/brains?limit=100', { key });
      assert.equal(after.body.count, before.body.count);
    });
  }

  it('a body that is not a JSON object, or no body -> 400', async () => {
    assertError(await post(['x']), 400, 'BAD_REQUEST');
    assertError(await post('x'), 400, 'BAD_REQUEST');
    assertError(await api.request('POST', '/v1/brains', { key }), 400, 'BAD_REQUEST');
  });

  it('401 without a key', async () => {
    assertError(await api.request('POST', '/v1/brains', { body: { name: 'x' } }), 401, 'UNAUTHORIZED');
  });

  it('/api/v1/brains creates the same way', async () => {
    const res = await post({ name: ' Via api ' }, '/api/v1');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.name, 'Via api');
    assert.equal(res.body.data.account_id, key.accountId);
    const read = await api.request('GET', `/api/v1/brains/${res.body.data.id}`, { key });
    assert.deepEqual(read.body, res.body);
    assertBadRequest(await post({ name: '' }, '/api/v1'), 'name');
  });
});

describe('GET /v1/brains', () => {
  const clock = manualClock(Date.parse('2026-04-01T00:00:00.000Z'));
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let defaultBrain: Brain;
  let made: Brain[];
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
    other = await newKey(api);
    defaultBrain = await getBrain(api, key, key.brainId);
    made = [];
    for (const name of ['one', 'two', 'three', 'four']) {
      clock.advance(1);
      made.push(await createBrain(api, key, name));
    }
    await createBrain(api, other, 'theirs');
  });
  after(() => api.close());

  const list = (query = '', k: TestKey = key, prefix = '/v1') =>
    api.request('GET', `${prefix}/brains${query}`, { key: k });

  it("lists the account's brains, the key's default brain included, newest first, with count", async () => {
    assert.equal(defaultBrain.id, key.brainId);
    assert.equal(defaultBrain.account_id, key.accountId);
    const res = await list();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['count', 'data']);
    assert.deepEqual(res.body.data, [...made].reverse().concat(defaultBrain));
    assert.equal(res.body.count, 5);
  });

  it("a fresh key's account has just its default brain", async () => {
    const fresh = await newKey(api);
    const res = await list('', fresh);
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 1);
    assert.equal(res.body.data.length, 1);
    const [brain] = res.body.data;
    assert.equal(brain.id, fresh.brainId);
    assert.equal(brain.account_id, fresh.accountId);
    assert.equal(brain.snapshot_count, 0);
    assert.equal(brain.edge_count, 0);
    assert.deepEqual(Object.keys(brain).sort(), BRAIN_KEYS);
  });

  it("a brain of account A never appears in account B's list", async () => {
    const mine = new Set((await list('?limit=100')).body.data.map((b: Brain) => b.id));
    const theirs = await list('?limit=100', other);
    assert.equal(theirs.body.count, 2);
    assert.deepEqual(
      theirs.body.data.map((b: Brain) => b.account_id),
      [other.accountId, other.accountId],
    );
    for (const b of theirs.body.data) assert.ok(!mine.has(b.id));
    assert.ok(!theirs.body.data.some((b: Brain) => b.id === key.brainId));
  });

  it('a second key of the same account sees the same brains', async () => {
    const made0 = made[0] as Brain;
    const sibling = await newKey(api, { brainId: made0.id });
    assert.equal(sibling.accountId, key.accountId);
    const mine = await list('?limit=100');
    const theirs = await list('?limit=100', sibling);
    assert.deepEqual(theirs.body, mine.body);
  });

  it('limit and offset page the list; count is the number of all brains', async () => {
    const all = [...made].reverse().concat(defaultBrain);
    const page1 = await list('?limit=2');
    assert.deepEqual(page1.body, { data: all.slice(0, 2), count: 5 });
    const page2 = await list('?limit=2&offset=2');
    assert.deepEqual(page2.body, { data: all.slice(2, 4), count: 5 });
    const page3 = await list('?limit=2&offset=4');
    assert.deepEqual(page3.body, { data: all.slice(4), count: 5 });
    const beyond = await list('?offset=50');
    assert.deepEqual(beyond.body, { data: [], count: 5 });
    const max = await list('?limit=100');
    assert.equal(max.status, 200);
    assert.deepEqual(max.body, { data: all, count: 5 });
    const one = await list('?limit=1');
    assert.deepEqual(one.body, { data: all.slice(0, 1), count: 5 });
  });

  it('limit defaults to 50', async () => {
    const many = await newKey(api);
    for (let i = 0; i < 51; i++) await createBrain(api, many, `b${i}`);
    const res = await list('', many);
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, 50);
    assert.equal(res.body.count, 52);
  });

  for (const [query, field] of [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=0.5', 'offset'],
    ['offset=99999999999999999999', 'offset'],
    ['offset=abc', 'offset'],
  ] as const) {
    it(`${query} -> 400`, async () => {
      assertBadRequest(await list(`?${query}`), field);
    });
  }

  it('brains created in the same millisecond are ordered by id descending', async () => {
    const tie = await newKey(api);
    clock.advance(1000);
    const tied: Brain[] = [];
    for (let i = 0; i < 5; i++) tied.push(await createBrain(api, tie, `t${i}`));
    assert.equal(new Set(tied.map((b) => b.created_at)).size, 1);
    const res = await list('', tie);
    const fromList = res.body.data.filter((b: Brain) => b.id !== tie.brainId);
    assert.deepEqual(fromList, newestFirst(tied));
  });

  it('/api/v1/brains lists the same', async () => {
    const v1 = await list('?limit=3&offset=1');
    const apiV1 = await list('?limit=3&offset=1', key, '/api/v1');
    assert.equal(apiV1.status, 200);
    assert.deepEqual(apiV1.body, v1.body);
  });

  it('401 without a key', async () => {
    assertError(await api.request('GET', '/v1/brains'), 401, 'UNAUTHORIZED');
  });
});

describe('GET /v1/brains/:id', () => {
  const clock = manualClock(Date.parse('2026-05-01T00:00:00.000Z'));
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ clock });
  });
  after(() => api.close());

  it('returns the default brain with its counts', async () => {
    const key = await newKey(api);
    const res = await api.request('GET', `/v1/brains/${key.brainId}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['data']);
    const brain = res.body.data;
    assert.deepEqual(Object.keys(brain).sort(), BRAIN_KEYS);
    assert.equal(brain.id, key.brainId);
    assert.equal(brain.account_id, key.accountId);
    assert.equal(typeof brain.name, 'string');
    assert.ok(brain.name.length > 0);
    assert.equal(brain.snapshot_count, 0);
    assert.equal(brain.edge_count, 0);
    assert.match(brain.created_at, ISO_MS);
    assert.match(brain.updated_at, ISO_MS);
  });

  it('snapshot_count and edge_count track creates and deletes', async () => {
    const key = await newKey(api);
    const brain = await createBrain(api, key, 'Counted');
    const counts = async (id = brain.id) => {
      const b = await getBrain(api, key, id);
      return [b.snapshot_count, b.edge_count];
    };
    assert.deepEqual(await counts(), [0, 0]);
    const [A, B, C] = (await createSnapshots(api, key, 3, { brain_id: brain.id })) as [Snapshot, Snapshot, Snapshot];
    assert.deepEqual(await counts(), [3, 0]);
    // A snapshot in the default brain counts there, not here.
    const elsewhere = await createSnapshot(api, key);
    assert.deepEqual(await counts(), [3, 0]);
    assert.deepEqual(await counts(key.brainId), [1, 0]);

    const ab = await createEdge(api, key, { source_id: A.id, target_id: B.id, edge_type: 'supports' });
    await createEdge(api, key, { source_id: B.id, target_id: C.id, edge_type: 'related_to' });
    await createEdge(api, key, { source_id: C.id, target_id: A.id, edge_type: 'contradicts' });
    assert.deepEqual(await counts(), [3, 3]);

    // Failed creates change nothing.
    const dup = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: A.id, target_id: B.id, edge_type: 'supports' },
    });
    assert.equal(dup.status, 409);
    const cross = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: A.id, target_id: elsewhere.id, edge_type: 'supports' },
    });
    assert.equal(cross.status, 422);
    assert.deepEqual(await counts(), [3, 3]);

    assert.equal((await api.request('DELETE', `/v1/edges/${ab.id}`, { key })).status, 200);
    assert.deepEqual(await counts(), [3, 2]);

    // Deleting C takes both of its remaining edges with it.
    assert.equal((await api.request('DELETE', `/v1/snapshots/${C.id}`, { key })).status, 200);
    assert.deepEqual(await counts(), [2, 0]);

    // The list reports the same counts.
    const listed = await api.request('GET', '/v1/brains', { key });
    const fromList = listed.body.data.find((b: Brain) => b.id === brain.id);
    assert.equal(fromList.snapshot_count, 2);
    assert.equal(fromList.edge_count, 0);
    const defaultFromList = listed.body.data.find((b: Brain) => b.id === key.brainId);
    assert.equal(defaultFromList.snapshot_count, 1);
  });

  it('memory_count counts the brain’s memories, through creates and deletes, in the brain and the list', async () => {
    const key = await newKey(api);
    const brain = await createBrain(api, key, 'Remembered');
    const remember = async (content: string, brainId = brain.id) => {
      const res = await api.request('POST', '/v1/memories', { key, body: { content, brain_id: brainId } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    const first = await remember('Tom is allergic to peanuts');
    await remember('Deploys happen on Tuesdays');
    await remember('Elsewhere', key.brainId);
    const read = await getBrain(api, key, brain.id);
    assert.deepEqual([read.snapshot_count, read.memory_count], [0, 2], 'a brain of memories alone is not empty');
    assert.equal((await api.request('DELETE', `/v1/memories/${first}`, { key })).status, 200);
    const listed = await api.request('GET', '/v1/brains', { key });
    assert.equal(listed.body.data.find((b: Brain) => b.id === brain.id).memory_count, 1);
    assert.equal(listed.body.data.find((b: Brain) => b.id === key.brainId).memory_count, 1);
  });

  it("another account's brain and an unknown brain -> 404, indistinguishable", async () => {
    const key = await newKey(api);
    const other = await newKey(api);
    const theirs = await createBrain(api, other, 'Private');
    const unknown = await api.request('GET', '/v1/brains/brain_01J00000000000000000000000', { key });
    assertError(unknown, 404, 'NOT_FOUND');
    const otherDefault = await api.request('GET', `/v1/brains/${other.brainId}`, { key });
    assertError(otherDefault, 404, 'NOT_FOUND');
    const otherMade = await api.request('GET', `/v1/brains/${theirs.id}`, { key });
    assertError(otherMade, 404, 'NOT_FOUND');
    assertSameError(unknown, otherMade);
    assertSameError(unknown, otherDefault);
    // The owner still sees it.
    assert.equal((await getBrain(api, other, theirs.id)).name, 'Private');
  });

  it("snapshots cannot be put into another account's brain, or an unknown one (404)", async () => {
    const key = await newKey(api);
    const other = await newKey(api);
    const theirs = await createBrain(api, other, 'Private');
    for (const brainId of [theirs.id, other.brainId, 'brain_01J00000000000000000000000']) {
      const res = await api.request('POST', '/v1/snapshots', {
        key,
        body: { name: 'n', core: 'c', brain_id: brainId },
      });
      assertError(res, 404, 'NOT_FOUND');
    }
    assert.equal((await getBrain(api, other, theirs.id)).snapshot_count, 0);
    assert.equal((await getBrain(api, other, other.brainId)).snapshot_count, 0);
  });

  it('a method the brain resource does not serve -> 405 with Allow', async () => {
    const key = await newKey(api);
    const res = await api.request('DELETE', `/v1/brains/${key.brainId}`, { key });
    assertError(res, 405, 'METHOD_NOT_ALLOWED');
    assert.match(String(res.headers.allow), /GET/);
    assert.equal((await getBrain(api, key, key.brainId)).id, key.brainId);
  });

  it('401 without a key', async () => {
    const key = await newKey(api);
    assertError(await api.request('GET', `/v1/brains/${key.brainId}`), 401, 'UNAUTHORIZED');
  });
});

describe('createBrain without an account (the CLI on an install with none yet)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  it('makes the account with the brain, and a key issued for that brain serves it', async () => {
    const brain = await createBrainDirectly(api.app.domain, undefined, { name: '  Fresh  ' });
    assert.match(brain.account_id, /^acct_/);
    assert.equal(brain.name, 'Fresh');
    assert.ok(await api.app.domain.store.keys.getAccount(brain.account_id), 'the account was stored');
    const key = await api.newKey({ brainId: brain.id });
    assert.equal(key.accountId, brain.account_id);
    const res = await api.request('GET', `/v1/brains/${brain.id}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.name, 'Fresh');
  });

  it('an invalid name creates neither the brain nor the account', async () => {
    const before = await api.app.domain.store.brains.list(undefined, { limit: 1000, offset: 0 });
    await assert.rejects(createBrainDirectly(api.app.domain, undefined, { name: '   ' }), /name/);
    const afterwards = await api.app.domain.store.brains.list(undefined, { limit: 1000, offset: 0 });
    assert.equal(afterwards.rows.length, before.rows.length);
  });
});
