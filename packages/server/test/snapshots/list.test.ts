// GET /v1/snapshots: order, count, type filter, limit/offset bounds, stable pages, brain scoping.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackend } from '../helpers/database.js';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { assertError, createBrain, createSnapshot, newKey, SNAPSHOT_FIELDS, SNAPSHOT_TYPES, T0 } from './fixtures.js';

type Snap = Record<string, any>;
const ids = (rows: Snap[]) => rows.map((row) => row.id as string);
/** The specified order: created_at descending, then id descending. */
const newestFirst = (rows: Snap[]) =>
  [...rows].sort((a, b) =>
    a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.id < b.id ? 1 : -1,
  );

async function list(api: TestApi, key: TestKey, query = ''): Promise<{ data: Snap[]; count: number }> {
  const res = await api.request('GET', `/v1/snapshots${query}`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['count', 'data']);
  assert.ok(Array.isArray(res.body.data));
  assert.equal(typeof res.body.count, 'number');
  return res.body;
}

describe('GET /v1/snapshots: order', () => {
  const clock = manualClock(T0);
  let api: TestApi;
  let key: TestKey;
  const made: Record<string, Snap> = {};
  before(async () => {
    api = await startTestApi({ clock });
    key = await newKey(api);
    clock.set(T0);
    made.first = await createSnapshot(api, key, { name: 'first', core: 'c' });
    clock.set(T0 + 1000);
    made.tieA = await createSnapshot(api, key, { name: 'tie a', core: 'c' });
    made.tieB = await createSnapshot(api, key, { name: 'tie b', core: 'c' });
    made.tieC = await createSnapshot(api, key, { name: 'tie c', core: 'c' });
    clock.set(T0 + 2000);
    made.newest = await createSnapshot(api, key, { name: 'newest', core: 'c' });
    // Made last, but with the clock set back: the oldest by created_at.
    clock.set(T0 - 60_000);
    made.oldest = await createSnapshot(api, key, { name: 'oldest', core: 'c' });
  });
  after(() => api.close());

  it('an account with no snapshots lists {data: [], count: 0}', async () => {
    const empty = await newKey(api);
    const res = await api.request('GET', '/v1/snapshots', { key: empty });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: [], count: 0 });
  });

  it('is newest first: created_at descending, then id descending (not insertion order)', async () => {
    const page = await list(api, key);
    const ties = [made.tieA, made.tieB, made.tieC]
      .map((s) => s!.id)
      .sort()
      .reverse();
    assert.deepEqual(ids(page.data), [made.newest!.id, ...ties, made.first!.id, made.oldest!.id]);
    assert.equal(page.count, 6);
  });

  it('snapshots made in the same millisecond list in reverse order of creation', async () => {
    const page = await list(api, key);
    const ties = [made.tieA!.id, made.tieB!.id, made.tieC!.id];
    assert.deepEqual(
      ids(page.data).filter((id) => ties.includes(id)),
      [...ties].reverse(),
    );
  });

  it('returns full snapshot objects identical to GET one', async () => {
    const page = await list(api, key);
    for (const row of page.data) {
      assert.deepEqual(Object.keys(row).sort(), SNAPSHOT_FIELDS);
      const one = await api.request('GET', `/v1/snapshots/${row.id}`, { key });
      assert.deepEqual(one.body.data, row);
    }
  });

  it('an update does not move a snapshot (order is by created_at, not updated_at)', async () => {
    clock.set(T0 + 100_000);
    const res = await api.request('PUT', `/v1/snapshots/${made.oldest!.id}`, { key, body: { story: 'touched' } });
    assert.equal(res.status, 200);
    const page = await list(api, key);
    assert.equal(page.data.at(-1)!.id, made.oldest!.id);
    assert.equal(page.data[0]!.id, made.newest!.id);
  });
});

describe('GET /v1/snapshots: count, limit, offset and type', () => {
  let api: TestApi;
  let key: TestKey;
  let all: Snap[] = [];
  const TOTAL = 55;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
    const created: Snap[] = [];
    for (let i = 0; i < TOTAL; i++) {
      const type = SNAPSHOT_TYPES[i % SNAPSHOT_TYPES.length];
      created.push(await createSnapshot(api, key, { name: `snapshot ${i}`, core: 'c', type }));
    }
    all = newestFirst(created);
  });
  after(() => api.close());

  it('defaults to limit 50 and offset 0; count is the total of all matches', async () => {
    const page = await list(api, key);
    assert.equal(page.data.length, 50);
    assert.equal(page.count, TOTAL);
    assert.deepEqual(ids(page.data), ids(all.slice(0, 50)));
  });

  const pages: [string, string, number, number][] = [
    ['limit=1', '?limit=1', 0, 1],
    ['limit=100 returns everything', '?limit=100', 0, 100],
    ['limit=7&offset=3', '?limit=7&offset=3', 3, 7],
    ['offset=50 with the default limit', '?offset=50', 50, 50],
    ['limit=100&offset=54', '?limit=100&offset=54', 54, 100],
    ['offset=0 explicitly', '?offset=0', 0, 50],
    ['offset equal to the total gives an empty page', `?offset=${TOTAL}`, TOTAL, 50],
    ['offset past the end gives an empty page', '?offset=10000', 10000, 50],
  ];
  for (const [label, query, offset, limit] of pages) {
    it(`${label}: the right slice, count still ${TOTAL}`, async () => {
      const page = await list(api, key, query);
      assert.deepEqual(ids(page.data), ids(all.slice(offset, offset + limit)));
      assert.equal(page.count, TOTAL);
    });
  }

  it('pages are stable and disjoint: walking with limit=10 visits every snapshot once, in order', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < TOTAL + 10; offset += 10) {
      const page = await list(api, key, `?limit=10&offset=${offset}`);
      assert.equal(page.count, TOTAL);
      assert.equal(page.data.length, Math.max(0, Math.min(10, TOTAL - offset)));
      seen.push(...ids(page.data));
    }
    assert.equal(new Set(seen).size, TOTAL);
    assert.deepEqual(seen, ids(all));
    // Asking again gives the same pages.
    const again = await list(api, key, '?limit=10&offset=20');
    assert.deepEqual(ids(again.data), seen.slice(20, 30));
  });

  for (const type of SNAPSHOT_TYPES) {
    it(`type=${type} lists only that type, newest first, and counts only that type`, async () => {
      const expected = all.filter((s) => s.type === type);
      assert.equal(expected.length, TOTAL / SNAPSHOT_TYPES.length);
      const page = await list(api, key, `?type=${type}`);
      assert.deepEqual(ids(page.data), ids(expected));
      assert.equal(page.count, expected.length);
      assert.ok(page.data.every((s) => s.type === type));
    });
  }

  it('type combines with limit and offset; count stays the filtered total', async () => {
    const expected = all.filter((s) => s.type === 'Rule');
    const page = await list(api, key, '?type=Rule&limit=4&offset=2');
    assert.deepEqual(ids(page.data), ids(expected.slice(2, 6)));
    assert.equal(page.count, expected.length);
  });

  it('a type nobody has yet lists nothing with count 0', async () => {
    const fresh = await newKey(api);
    await createSnapshot(api, fresh, { name: 'only a belief', core: 'c' });
    const page = await list(api, fresh, '?type=Principle');
    assert.deepEqual(page, { data: [], count: 0 });
  });

  const badQueries: [string, string][] = [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=', 'limit'],
    ['limit=1000', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1.5', 'offset'],
    ['offset=abc', 'offset'],
    ['offset=99999999999999999999', 'offset'],
    ['limit=0x10', 'limit'],
    ['limit=1e1', 'limit'],
    ['offset=%205', 'offset'],
    ['type=belief', 'type'],
    ['type=Opinion', 'type'],
  ];
  for (const [query, field] of badQueries) {
    it(`${query} is 400 BAD_REQUEST naming ${field} (no clamping)`, async () => {
      const res = await api.request('GET', `/v1/snapshots?${query}`, { key });
      assertError(res, 400, 'BAD_REQUEST', field);
    });
  }

  it('an invalid type lists the allowed values', async () => {
    const res = await api.request('GET', '/v1/snapshots?type=Opinion', { key });
    assertError(res, 400, 'BAD_REQUEST', 'type');
    for (const type of SNAPSHOT_TYPES) assert.ok(res.body.error.message.includes(type), res.body.error.message);
  });
});

describe('GET /v1/snapshots: brains', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let secondBrain: string;
  const inDefault: Snap[] = [];
  const inSecond: Snap[] = [];
  let foreign: Snap;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
    other = await newKey(api);
    secondBrain = await createBrain(api, key, 'Work');
    for (let i = 0; i < 2; i++) inDefault.push(await createSnapshot(api, key, { name: `default ${i}`, core: 'c' }));
    for (let i = 0; i < 3; i++) {
      inSecond.push(await createSnapshot(api, key, { name: `second ${i}`, core: 'c', brain_id: secondBrain }));
    }
    foreign = await createSnapshot(api, other, { name: 'foreign', core: 'c' });
  });
  after(() => api.close());

  it("lists only the key's default brain by default", async () => {
    const page = await list(api, key);
    assert.deepEqual(ids(page.data), ids(newestFirst(inDefault)));
    assert.equal(page.count, 2);
    assert.ok(page.data.every((s) => s.brain_id === key.brainId));
  });

  it('brain_id lists another brain of the account, and only it', async () => {
    const page = await list(api, key, `?brain_id=${secondBrain}`);
    assert.deepEqual(ids(page.data), ids(newestFirst(inSecond)));
    assert.equal(page.count, 3);
    assert.ok(page.data.every((s) => s.brain_id === secondBrain));
  });

  it('brain_id of the default brain is the same as none', async () => {
    const page = await list(api, key, `?brain_id=${key.brainId}`);
    assert.deepEqual(ids(page.data), ids(newestFirst(inDefault)));
    assert.equal(page.count, 2);
  });

  it('brain_id combines with type, limit and offset', async () => {
    const page = await list(api, key, `?brain_id=${secondBrain}&type=Belief&limit=1&offset=1`);
    assert.deepEqual(ids(page.data), ids(newestFirst(inSecond).slice(1, 2)));
    assert.equal(page.count, 3);
  });

  it("never shows another account's snapshots, in either direction", async () => {
    const mine = [...(await list(api, key)).data, ...(await list(api, key, `?brain_id=${secondBrain}`)).data];
    assert.ok(!ids(mine).includes(foreign.id));
    const theirs = await list(api, other);
    assert.deepEqual(ids(theirs.data), [foreign.id]);
    assert.equal(theirs.count, 1);
  });

  it('a second key of the same account whose default is the second brain lists that brain', async () => {
    const workKey = await newKey(api, secondBrain);
    const page = await list(api, workKey);
    assert.deepEqual(ids(page.data), ids(newestFirst(inSecond)));
    assert.equal(page.count, 3);
  });

  const missingBrains: [string, () => string][] = [
    ["another account's brain", () => other.brainId],
    ['an unknown, well-formed brain id', () => 'brain_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['a garbage brain id', () => 'not-a-brain'],
  ];
  for (const [label, brainId] of missingBrains) {
    it(`brain_id of ${label} is 404 NOT_FOUND`, async () => {
      const res = await api.request('GET', `/v1/snapshots?brain_id=${encodeURIComponent(brainId())}`, { key });
      assertError(res, 404, 'NOT_FOUND');
    });
  }

  it("another account's brain answers exactly like an unknown one", async () => {
    const foreignBrain = await api.request('GET', `/v1/snapshots?brain_id=${other.brainId}`, { key });
    const unknown = await api.request('GET', '/v1/snapshots?brain_id=brain_01JZZZZZZZZZZZZZZZZZZZZZZZ', { key });
    assert.deepEqual(foreignBrain.body.error, unknown.body.error);
  });
});

describe('GET /v1/snapshots: tag filter', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let secondBrain: string;
  const made: Record<string, Snap> = {};
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
    other = await newKey(api);
    secondBrain = await createBrain(api, key, 'Side');
    const make = (handle: string, body: Snap, k: TestKey = key) =>
      createSnapshot(api, k, { name: handle, core: 'c', ...body }).then((s) => (made[handle] = s));
    await make('deep', { tags: ['deep work', 'focus'] });
    await make('reversed', { tags: ['work', 'deep'] }); // the words of "deep work", not the tag
    await make('longer', { tags: ['deep work habits'] });
    await make('model', { tags: ['deep work'], type: 'Model' });
    await make('plus', { tags: ['c++'] });
    await make('symbols', { tags: ['++'] });
    await make('untagged', {});
    await make('side', { tags: ['deep work'], brain_id: secondBrain });
    await make('foreign', { tags: ['deep work'] }, other);
  });
  after(() => api.close());

  const tagged = (query: string) => list(api, key, `?${query}`);

  it('lists only the snapshots carrying exactly that tag, newest first, counting them all', async () => {
    const page = await tagged('tag=deep%20work');
    assert.deepEqual(ids(page.data), [made.model!.id, made.deep!.id]);
    assert.equal(page.count, 2);
    assert.deepEqual(page.data[1], made.deep, 'full snapshot objects');
  });

  it('is trimmed, as stored tags are, and matches case exactly as stored', async () => {
    assert.deepEqual(ids((await tagged('tag=%20deep%20work%20')).data), [made.model!.id, made.deep!.id]);
    assert.deepEqual(await tagged('tag=Deep%20Work'), { data: [], count: 0 });
  });

  it('combines with type, limit, offset and cursor', async () => {
    assert.deepEqual(ids((await tagged('tag=deep%20work&type=Model')).data), [made.model!.id]);
    const second = await tagged('tag=deep%20work&limit=1&offset=1');
    assert.deepEqual(ids(second.data), [made.deep!.id]);
    assert.equal(second.count, 2);
    const first = await api.request('GET', '/v1/snapshots?tag=deep%20work&limit=1&cursor=', { key });
    assert.deepEqual(ids(first.body.data), [made.model!.id]);
    const next = await api.request(
      'GET',
      `/v1/snapshots?tag=deep%20work&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key },
    );
    assert.deepEqual(ids(next.body.data), [made.deep!.id]);
    assert.equal(next.body.next_cursor, null);
  });

  it('a tag of symbols alone, or with letters, is matched exactly too', async () => {
    assert.deepEqual(ids((await tagged('tag=%2B%2B')).data), [made.symbols!.id]);
    assert.deepEqual(ids((await tagged('tag=c%2B%2B')).data), [made.plus!.id]);
  });

  it("keeps to the brain asked for and never shows another account's snapshots", async () => {
    assert.deepEqual(ids((await list(api, key, `?tag=deep%20work&brain_id=${secondBrain}`)).data), [made.side!.id]);
    assert.deepEqual(ids((await list(api, other, '?tag=deep%20work')).data), [made.foreign!.id]);
  });

  it('follows updates and deletes', async () => {
    const res = await api.request('PUT', `/v1/snapshots/${made.reversed!.id}`, { key, body: { tags: ['deep work'] } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await tagged('tag=deep%20work')).count, 3);
    assert.equal((await api.request('DELETE', `/v1/snapshots/${made.reversed!.id}`, { key })).status, 200);
    assert.equal((await tagged('tag=deep%20work')).count, 2);
  });

  for (const [query, label] of [
    ['tag=', 'empty'],
    ['tag=%20%20', 'blank'],
    [`tag=${'t'.repeat(65)}`, 'of 65 characters'],
  ] as const) {
    it(`a tag ${label} is 400 BAD_REQUEST naming tag`, async () => {
      assertError(await api.request('GET', `/v1/snapshots?${query}`, { key }), 400, 'BAD_REQUEST', 'tag');
    });
  }
});

describe(
  'GET /v1/snapshots: tag filter in a brain past 2,000 snapshots',
  {
    skip: testBackend !== 'sqlite' && "SQLite's path: PostgreSQL checks every brain alike",
  },
  () => {
    // Past 2,000 snapshots SQLite reads a tag's candidates from the full-text index instead of the
    // whole brain; the tags here are those a tokenizer could split unlike the index did.
    const TRICKY = ['nai\u0308ve', 'İstanbul', '\uE000abc', 'Ꟁ', 'C# "quoted" tag*', 'deep work', '++'];
    let api: TestApi;
    let key: TestKey;
    const holders = new Map<string, string>();
    before(async () => {
      api = await startTestApi();
      key = await newKey(api);
      for (let i = 0; i < 2_001; i += 100) {
        await Promise.all(
          Array.from({ length: Math.min(100, 2_001 - i) }, (_, j) =>
            createSnapshot(api, key, { name: `filler ${i + j}`, core: 'c', tags: ['filler', 'work deep'] }),
          ),
        );
      }
      for (const tag of TRICKY)
        holders.set(tag, (await createSnapshot(api, key, { name: tag, core: 'c', tags: [tag] })).id);
    });
    after(() => api.close());

    for (const tag of TRICKY) {
      it(`finds exactly the snapshot tagged ${JSON.stringify(tag)}`, async () => {
        const page = await list(api, key, `?tag=${encodeURIComponent(tag)}`);
        assert.deepEqual(ids(page.data), [holders.get(tag)]);
        assert.equal(page.count, 1);
      });
    }

    it('a tag every snapshot of the brain carries is counted whole, and pages by cursor', async () => {
      const first = await api.request('GET', '/v1/snapshots?tag=filler&limit=100&cursor=', { key });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.count, 2_001);
      assert.equal(first.body.data.length, 100);
      assert.ok(first.body.data.every((s: Snap) => s.tags.includes('filler')));
      const next = await api.request(
        'GET',
        `/v1/snapshots?tag=filler&limit=100&cursor=${encodeURIComponent(first.body.next_cursor)}`,
        { key },
      );
      assert.equal(next.body.data.length, 100);
      assert.ok(next.body.data[0].created_at <= first.body.data[99].created_at);
      assert.ok(!ids(next.body.data).some((id) => ids(first.body.data).includes(id)));
    });
  },
);
