// Every response carries X-Request-Id; error bodies repeat it as request_id; a client's own id is
// echoed; generated ids never repeat (design §3.3).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { snapshotBody, startTestApi, type ApiResponse, type TestApi, type TestKey } from '../helpers/harness.js';
import { ODD_IDS, ONE_MIB, call, jsonOfSize, makeFixture, missingId, roomyKey, type Fixture } from './support.js';
import { testBackend } from '../helpers/database.js';

type Send = (headers: Record<string, string>) => Promise<ApiResponse>;

// The same on either store: the SQLite pass runs it (scripts/run-tests.mjs, ONE_BACKEND_ONLY).
describe('request ids', { skip: testBackend !== 'sqlite' }, () => {
  let api: TestApi;
  let key: TestKey;
  let f: Fixture;

  before(async () => {
    api = await startTestApi();
    key = await roomyKey(api);
    f = await makeFixture(api, key);
  });
  after(() => api.close());

  const json = { 'content-type': 'application/json' };
  /** Requests of every kind, each sending the given extra headers. */
  const cases: { name: string; status: number; send: Send }[] = [
    { name: 'GET /healthz', status: 200, send: (h) => call(api, 'GET', '/healthz', { headers: h }) },
    { name: 'GET /readyz', status: 200, send: (h) => call(api, 'GET', '/readyz', { headers: h }) },
    { name: 'GET /v1/openapi.json', status: 200, send: (h) => call(api, 'GET', '/v1/openapi.json', { headers: h }) },
    { name: 'GET /v1/docs', status: 200, send: (h) => call(api, 'GET', '/v1/docs', { headers: h }) },
    { name: 'GET /v1/snapshots', status: 200, send: (h) => call(api, 'GET', '/v1/snapshots', { key, headers: h }) },
    {
      name: 'POST /v1/snapshots',
      status: 201,
      send: (h) => call(api, 'POST', '/v1/snapshots', { key, headers: h, body: snapshotBody() }),
    },
    {
      name: 'DELETE /v1/edges/:id',
      status: 200,
      send: async (h) => {
        const edge = await call(api, 'POST', '/v1/edges', {
          key,
          body: { source_id: f.snapshotId, target_id: f.otherSnapshotId, edge_type: 'related_to' },
        });
        assert.equal(edge.status, 201);
        return call(api, 'DELETE', `/v1/edges/${edge.body.data.id}`, { key, headers: h });
      },
    },
    { name: '401', status: 401, send: (h) => call(api, 'GET', '/v1/snapshots', { headers: h }) },
    {
      name: '400',
      status: 400,
      send: (h) => call(api, 'POST', '/v1/snapshots', { key, headers: h, body: { name: 'no core' } }),
    },
    {
      name: '400 INVALID_JSON',
      status: 400,
      send: (h) => call(api, 'POST', '/v1/snapshots', { key, headers: { ...h, ...json }, rawBody: '{' }),
    },
    {
      name: '404 (missing id)',
      status: 404,
      send: (h) => call(api, 'GET', `/v1/snapshots/${missingId('snap')}`, { key, headers: h }),
    },
    { name: '404 (unknown route)', status: 404, send: (h) => call(api, 'GET', '/v1/nope', { key, headers: h }) },
    {
      name: '405',
      status: 405,
      send: (h) => call(api, 'PATCH', `/v1/snapshots/${f.snapshotId}`, { key, headers: h, body: { name: 'x' } }),
    },
    {
      name: '409',
      status: 409,
      send: (h) =>
        call(api, 'POST', '/v1/edges', {
          key,
          headers: h,
          body: { source_id: f.snapshotId, target_id: f.otherSnapshotId, edge_type: 'supports' },
        }),
    },
    {
      name: '413',
      status: 413,
      send: (h) =>
        call(api, 'POST', '/v1/snapshots', { key, headers: { ...h, ...json }, rawBody: jsonOfSize(ONE_MIB + 1) }),
    },
    {
      name: '415',
      status: 415,
      send: (h) =>
        call(api, 'POST', '/v1/snapshots', { key, headers: { ...h, 'content-type': 'text/plain' }, rawBody: 'x' }),
    },
    {
      name: '422',
      status: 422,
      send: (h) =>
        call(api, 'POST', '/v1/edges', {
          key,
          headers: h,
          body: { source_id: f.snapshotId, target_id: f.snapshotId, edge_type: 'supports' },
        }),
    },
  ];

  describe('every response carries X-Request-Id, and an error body repeats it', () => {
    for (const c of cases) {
      it(`${c.name} -> ${c.status}`, async () => {
        const response = await c.send({});
        assert.equal(response.status, c.status, JSON.stringify(response.body));
        const header = response.headers['x-request-id'];
        assert.equal(typeof header, 'string', 'X-Request-Id is present');
        assert.notEqual(header, '');
        if (c.status >= 400) assert.equal(response.body.request_id, header, 'request_id equals X-Request-Id');
      });
    }
  });

  describe('a client-sent X-Request-Id is echoed in the header and in the error body', () => {
    for (const c of cases) {
      it(`${c.name} -> ${c.status}`, async () => {
        const response = await c.send({ 'x-request-id': 'my-trace-123' });
        assert.equal(response.status, c.status, JSON.stringify(response.body));
        assert.equal(response.headers['x-request-id'], 'my-trace-123');
        if (c.status >= 400) assert.equal(response.body.request_id, 'my-trace-123');
      });
    }
  });

  describe('ids the router balks at still get a request id, echoed when sent', () => {
    for (const [what, id] of ODD_IDS) {
      for (const withKey of [true, false]) {
        it(`GET /v1/snapshots/:id with ${what}, ${withKey ? 'with' : 'without'} a key`, async () => {
          const plain = await call(api, 'GET', `/v1/snapshots/${id}`, withKey ? { key } : {});
          assert.equal(
            typeof plain.headers['x-request-id'],
            'string',
            `X-Request-Id (${plain.status} ${plain.raw.body})`,
          );
          assert.equal(plain.body?.request_id, plain.headers['x-request-id']);
          const traced = await call(api, 'GET', `/v1/snapshots/${id}`, {
            ...(withKey ? { key } : {}),
            headers: { 'x-request-id': 'my-trace-123' },
          });
          assert.equal(traced.headers['x-request-id'], 'my-trace-123');
          assert.equal(traced.body?.request_id, 'my-trace-123');
        });
      }
    }
  });

  it('generated ids are unique per request, and a client id does not stick to later requests', async () => {
    const seen = new Set<string>();
    const rounds = 3;
    for (let round = 0; round < rounds; round++) {
      for (const c of cases) seen.add(String((await c.send({})).headers['x-request-id']));
    }
    const traced = await call(api, 'GET', '/v1/snapshots', { key, headers: { 'x-request-id': 'my-trace-123' } });
    assert.equal(traced.headers['x-request-id'], 'my-trace-123');
    const next = await call(api, 'GET', '/v1/snapshots', { key });
    seen.add(String(next.headers['x-request-id']));
    assert.equal(seen.size, rounds * cases.length + 1, 'no generated id repeats');
    assert.ok(!seen.has('my-trace-123'));
  });

  it('generated ids have the documented req_ form', async () => {
    const response = await call(api, 'GET', '/v1/nope', { key });
    assert.match(String(response.headers['x-request-id']), /^req_[A-Za-z0-9_-]{8,}$/);
    assert.equal(response.body.request_id, response.headers['x-request-id']);
  });
});
