// /api/v1 serves the snapshot routes exactly as /v1 does (design §3.1), and both require a key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { assertError, createSnapshot, fullBody, newKey, SNAPSHOT_FIELDS } from './fixtures.js';

describe('/api/v1/snapshots serves the same behaviour as /v1/snapshots', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
  });
  after(() => api.close());

  it('creates via /api/v1 with the same status and body shape', async () => {
    const res = await api.request('POST', '/api/v1/snapshots', { key, body: { name: ' Via api ', core: 'c' } });
    assert.equal(res.status, 201);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(Object.keys(res.body.data).sort(), SNAPSHOT_FIELDS);
    assert.equal(res.body.data.name, 'Via api');
    assert.equal(res.body.data.brain_id, key.brainId);
    assert.equal(res.body.data.source_type, 'manual');
  });

  it('an object created via /v1 is readable via /api/v1 and the other way round', async () => {
    const viaV1 = await createSnapshot(api, key, fullBody());
    const read = await api.request('GET', `/api/v1/snapshots/${viaV1.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { data: viaV1 });
    const viaApi = await createSnapshot(api, key, { name: 'Via api', core: 'c' }, '/api/v1');
    const back = await api.request('GET', `/v1/snapshots/${viaApi.id}`, { key });
    assert.deepEqual(back.body, { data: viaApi });
  });

  it('lists the same page under both prefixes', async () => {
    for (const query of ['', '?limit=2', '?limit=1&offset=1', '?type=Principle']) {
      const v1 = await api.request('GET', `/v1/snapshots${query}`, { key });
      const apiV1 = await api.request('GET', `/api/v1/snapshots${query}`, { key });
      assert.equal(v1.status, 200);
      assert.equal(apiV1.status, 200);
      assert.deepEqual(apiV1.body, v1.body);
    }
    const all = await api.request('GET', '/api/v1/snapshots', { key });
    assert.equal(all.body.count, 3);
  });

  it('updates via /api/v1 and the change is seen via /v1', async () => {
    const snapshot = await createSnapshot(api, key, { name: 'Before', core: 'c' });
    const res = await api.request('PUT', `/api/v1/snapshots/${snapshot.id}`, {
      key,
      body: { name: 'After', tags: ['x'] },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, 'After');
    assert.deepEqual(res.body.data.tags, ['x']);
    const read = await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key });
    assert.deepEqual(read.body, res.body);
  });

  it('deletes via /api/v1 and the snapshot is gone via /v1', async () => {
    const snapshot = await createSnapshot(api, key, { name: 'Doomed', core: 'c' });
    const res = await api.request('DELETE', `/api/v1/snapshots/${snapshot.id}`, { key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: { success: true } });
    assertError(await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key }), 404, 'NOT_FOUND');
    assertError(await api.request('DELETE', `/api/v1/snapshots/${snapshot.id}`, { key }), 404, 'NOT_FOUND');
  });

  const errors: [string, string, string, Record<string, unknown>, number, string, string?][] = [
    ['a missing core', 'POST', '/api/v1/snapshots', { body: { name: 'x' } }, 400, 'BAD_REQUEST', 'core'],
    [
      'an unknown field',
      'POST',
      '/api/v1/snapshots',
      { body: { name: 'x', core: 'y', foo: 1 } },
      400,
      'BAD_REQUEST',
      'foo',
    ],
    ['limit=0', 'GET', '/api/v1/snapshots?limit=0', {}, 400, 'BAD_REQUEST', 'limit'],
    ['limit=1.5', 'GET', '/api/v1/snapshots?limit=1.5', {}, 400, 'BAD_REQUEST', 'limit'],
    ['an unknown id', 'GET', '/api/v1/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ', {}, 404, 'NOT_FOUND'],
    ['PUT {}', 'PUT', '/api/v1/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ', { body: {} }, 400, 'BAD_REQUEST'],
    [
      'malformed JSON',
      'POST',
      '/api/v1/snapshots',
      { rawBody: '{', headers: { 'content-type': 'application/json' } },
      400,
      'INVALID_JSON',
    ],
    [
      'a non-JSON content type',
      'POST',
      '/api/v1/snapshots',
      { rawBody: '{}', headers: { 'content-type': 'text/plain' } },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
  ];
  for (const [label, method, url, options, status, code, field] of errors) {
    it(`${method} ${url.split('?')[0]} with ${label}: ${status} ${code}, as under /v1`, async () => {
      const res = await api.request(method, url, { key, ...options });
      assertError(res, status, code, field);
      const same = await api.request(method, url.replace('/api/v1/', '/v1/'), { key, ...options });
      assertError(same, status, code, field);
      assert.deepEqual(res.body.error, same.body.error);
    });
  }
});

describe('every snapshot route requires a valid key, under both prefixes', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  const routes: [string, string, unknown?][] = [
    ['POST', '/snapshots', { name: 'x', core: 'y' }],
    ['GET', '/snapshots'],
    ['GET', '/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['PUT', '/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ', { name: 'x' }],
    ['DELETE', '/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
  ];
  const credentials: [string, string | null][] = [
    ['no key', null],
    ['an invalid key', 'sg_0000000000000000000000000000000000000000'],
  ];
  for (const prefix of ['/v1', '/api/v1']) {
    for (const [method, path, body] of routes) {
      for (const [label, credential] of credentials) {
        it(`${method} ${prefix}${path} with ${label}: 401 UNAUTHORIZED`, async () => {
          const res = await api.request(method, `${prefix}${path}`, {
            key: credential,
            ...(body ? { body } : {}),
          });
          assertError(res, 401, 'UNAUTHORIZED');
          assert.match(String(res.headers['www-authenticate']), /^Bearer/);
        });
      }
    }
  }
});
