import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/** Design §12.4: POST /v1/memories/:id/promote is POST /v1/memories/:id/crystallize under the client's name. */
describe('POST /v1/memories/:id/promote', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  const remember = async (content: string) => {
    const res = await api.request('POST', '/v1/memories', { key, body: { content, memory_type: 'decision' } });
    assert.equal(res.status, 201);
    return res.body.data.id as string;
  };

  it('promotes as /crystallize does: 201 the first time, 200 with the same snapshots after, by either name', async () => {
    const id = await remember('We decided that every release ships on a Tuesday so support is staffed.');
    const first = await api.request('POST', `/v1/memories/${id}/promote`, { key });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.ok(first.body.data.snapshots.length >= 1);
    assert.equal(first.body.data.memory.promoted_to, first.body.data.snapshots[0].id);
    assert.equal(first.headers.location, `/v1/snapshots/${first.body.data.snapshots[0].id}`, 'the first snapshot made');
    const again = await api.request('POST', `/api/v1/memories/${id}/crystallize`, { key, body: {} });
    assert.equal(again.status, 200);
    assert.equal(again.headers.location, undefined, 'nothing was made');
    assert.deepEqual(again.body.data.snapshots, first.body.data.snapshots);
    const alias = await api.request('POST', `/v1/memories/${id}/promote`, { key, body: { auto_link: false } });
    assert.equal(alias.status, 200);
  });

  it('validates and scopes as /crystallize does', async () => {
    const id = await remember('I prefer short meetings with a written agenda sent the day before.');
    const bad = await api.request('POST', `/v1/memories/${id}/promote`, { key, body: { nope: 1 } });
    assert.equal(bad.status, 400);
    const stranger = await api.newKey();
    const hidden = await api.request('POST', `/v1/memories/${id}/promote`, { key: stranger });
    assert.equal(hidden.status, 404);
    const doc = await api.request('GET', '/v1/openapi.json');
    assert.ok(doc.body.paths['/v1/memories/{id}/promote']?.post, 'in the OpenAPI document');
  });
});
