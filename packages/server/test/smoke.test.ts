import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { snapshotBody, startTestApi, type TestApi, type TestKey } from './helpers/harness.js';

describe('smoke: create and read a snapshot', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  it('creates with defaults and reads it back by id', async () => {
    const created = await api.request('POST', '/v1/snapshots', { key, body: snapshotBody() });
    assert.equal(created.status, 201);
    assert.match(created.body.data.id, /^snap_[0-9A-Z]{26}$/);
    const read = await api.request('GET', `/v1/snapshots/${created.body.data.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, created.body);
  });
});
