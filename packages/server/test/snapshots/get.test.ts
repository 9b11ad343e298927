// GET /v1/snapshots/:id: the stored object, and 404 for anything the caller cannot see.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { assertError, createBrain, createSnapshot, fullBody, newKey, SNAPSHOT_FIELDS } from './fixtures.js';

describe('GET /v1/snapshots/:id', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let snapshot: Record<string, any>;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
    other = await newKey(api);
    snapshot = await createSnapshot(api, key, fullBody());
  });
  after(() => api.close());

  it('answers 200 with {data: snapshot}, the object as created', async () => {
    const res = await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(Object.keys(res.body.data).sort(), SNAPSHOT_FIELDS);
    assert.deepEqual(res.body.data, snapshot);
  });

  it('reads a snapshot in another brain of the same account', async () => {
    const brain = await createBrain(api, key);
    const elsewhere = await createSnapshot(api, key, { name: 'Elsewhere', core: 'c', brain_id: brain });
    const res = await api.request('GET', `/v1/snapshots/${elsewhere.id}`, { key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, elsewhere);
  });

  it('reads with a second key of the same account', async () => {
    const sibling = await newKey(api, key.brainId);
    assert.equal(sibling.accountId, key.accountId);
    const res = await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key: sibling });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, snapshot);
  });

  const missing: [string, string][] = [
    ['an unknown, well-formed id', 'snap_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['a garbage id', 'garbage'],
    ['a bare prefix', 'snap_'],
    ['an id of another kind', 'edge_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['an id with URL-escaped characters', 'snap_%20%2F..'],
  ];
  for (const [label, id] of missing) {
    it(`${label} is 404 NOT_FOUND with the error body`, async () => {
      const res = await api.request('GET', `/v1/snapshots/${id}`, { key });
      assertError(res, 404, 'NOT_FOUND');
    });
  }

  it('the id with a different letter case is 404 (ids are exact)', async () => {
    const res = await api.request('GET', `/v1/snapshots/${snapshot.id.toLowerCase()}`, { key });
    assertError(res, 404, 'NOT_FOUND');
  });

  it("another account's snapshot is 404, with the same error as an unknown id", async () => {
    const foreign = await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key: other });
    const unknown = await api.request('GET', '/v1/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ', { key: other });
    assertError(foreign, 404, 'NOT_FOUND');
    assertError(unknown, 404, 'NOT_FOUND');
    assert.deepEqual(foreign.body.error, unknown.body.error);
  });
});
