// DELETE /v1/snapshots/:id: the success body, then gone everywhere; 404 for what cannot be seen.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { assertError, createBrain, createSnapshot, fullBody, getSnapshot, newKey } from './fixtures.js';

describe('DELETE /v1/snapshots/:id', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
    other = await newKey(api);
  });
  after(() => api.close());

  it('answers 200 {data: {success: true}}; then GET is 404 and a second DELETE is 404', async () => {
    const snapshot = await createSnapshot(api, key, fullBody());
    const res = await api.request('DELETE', `/v1/snapshots/${snapshot.id}`, { key });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.body, { data: { success: true } });
    assertError(await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key }), 404, 'NOT_FOUND');
    assertError(await api.request('DELETE', `/v1/snapshots/${snapshot.id}`, { key }), 404, 'NOT_FOUND');
    assertError(
      await api.request('PUT', `/v1/snapshots/${snapshot.id}`, { key, body: { name: 'Back' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('removes it from the list and the count, leaving the others untouched', async () => {
    const fresh = await newKey(api);
    const keep1 = await createSnapshot(api, fresh, { name: 'keep 1', core: 'c' });
    const doomed = await createSnapshot(api, fresh, { name: 'doomed', core: 'c' });
    const keep2 = await createSnapshot(api, fresh, { name: 'keep 2', core: 'c' });
    const before = await api.request('GET', '/v1/snapshots', { key: fresh });
    assert.equal(before.body.count, 3);
    assert.equal((await api.request('DELETE', `/v1/snapshots/${doomed.id}`, { key: fresh })).status, 200);
    const afterDelete = await api.request('GET', '/v1/snapshots', { key: fresh });
    assert.equal(afterDelete.body.count, 2);
    assert.deepEqual(afterDelete.body.data.map((s: { id: string }) => s.id).sort(), [keep1.id, keep2.id].sort());
    assert.deepEqual(await getSnapshot(api, fresh, keep1.id), keep1);
    assert.deepEqual(await getSnapshot(api, fresh, keep2.id), keep2);
  });

  it('deletes a snapshot in another brain of the same account', async () => {
    const brain = await createBrain(api, key);
    const snapshot = await createSnapshot(api, key, { name: 'Elsewhere', core: 'c', brain_id: brain });
    const res = await api.request('DELETE', `/v1/snapshots/${snapshot.id}`, { key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: { success: true } });
    const listed = await api.request('GET', `/v1/snapshots?brain_id=${brain}`, { key });
    assert.deepEqual(listed.body, { data: [], count: 0 });
  });

  it('a JSON content type with an empty body is fine for DELETE', async () => {
    const snapshot = await createSnapshot(api, key, { name: 'Empty body', core: 'c' });
    const res = await api.request('DELETE', `/v1/snapshots/${snapshot.id}`, {
      key,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { data: { success: true } });
  });

  const missing: [string, string][] = [
    ['an unknown, well-formed id', 'snap_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['a garbage id', 'garbage'],
  ];
  for (const [label, id] of missing) {
    it(`${label} is 404 NOT_FOUND`, async () => {
      assertError(await api.request('DELETE', `/v1/snapshots/${id}`, { key }), 404, 'NOT_FOUND');
    });
  }

  it("another account's snapshot is 404 like an unknown id, and it survives", async () => {
    const snapshot = await createSnapshot(api, key, { name: 'Survivor', core: 'c' });
    const foreign = await api.request('DELETE', `/v1/snapshots/${snapshot.id}`, { key: other });
    const unknown = await api.request('DELETE', '/v1/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ', { key: other });
    assertError(foreign, 404, 'NOT_FOUND');
    assert.deepEqual(foreign.body.error, unknown.body.error);
    assert.deepEqual(await getSnapshot(api, key, snapshot.id), snapshot);
  });
});
