// /v1 and /api/v1 are one API; the OpenAPI document, the docs page and the health checks answer
// without a key (design §3.1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { snapshotBody, startTestApi, type ApiResponse, type TestApi, type TestKey } from '../helpers/harness.js';
import { call, makeFixture, roomyKey, type Fixture } from './support.js';
import { testBackend } from '../helpers/database.js';

// The same on either store: the SQLite pass runs it (scripts/run-tests.mjs, ONE_BACKEND_ONLY).
describe('versioning: /v1 and /api/v1 serve the same routes', { skip: testBackend !== 'sqlite' }, () => {
  let api: TestApi;
  let key: TestKey;
  let f: Fixture;

  before(async () => {
    api = await startTestApi();
    key = await roomyKey(api);
    f = await makeFixture(api, key);
  });
  after(() => api.close());

  const ok = (response: ApiResponse, status: number) =>
    assert.equal(response.status, status, JSON.stringify(response.body));

  for (const [write, read] of [
    ['/v1', '/api/v1'],
    ['/api/v1', '/v1'],
  ] as const) {
    describe(`written via ${write}, read via ${read}`, () => {
      it('a snapshot: create, read, list, update, delete', async () => {
        const created = await call(api, 'POST', `${write}/snapshots`, { key, body: snapshotBody({ tags: ['x'] }) });
        ok(created, 201);
        const id = created.body.data.id as string;
        assert.equal(created.headers.location, `${write}/snapshots/${id}`, 'Location: the new object, same prefix');
        const got = await call(api, 'GET', `${read}/snapshots/${id}`, { key });
        ok(got, 200);
        assert.deepEqual(got.body, created.body);
        const listed = await call(api, 'GET', `${read}/snapshots`, { key });
        ok(listed, 200);
        assert.ok(listed.body.data.some((s: { id: string }) => s.id === id));

        const updated = await call(api, 'PUT', `${read}/snapshots/${id}`, { key, body: { name: 'Renamed' } });
        ok(updated, 200);
        const reread = await call(api, 'GET', `${write}/snapshots/${id}`, { key });
        assert.equal(reread.body.data.name, 'Renamed');

        ok(await call(api, 'DELETE', `${read}/snapshots/${id}`, { key }), 200);
        assert.equal((await call(api, 'GET', `${write}/snapshots/${id}`, { key })).status, 404);
      });

      it('an edge: create, read, list, update, delete', async () => {
        const created = await call(api, 'POST', `${write}/edges`, {
          key,
          body: { source_id: f.otherSnapshotId, target_id: f.snapshotId, edge_type: 'elaborates', strength: 0.7 },
        });
        ok(created, 201);
        const id = created.body.data.id as string;
        assert.equal(created.headers.location, `${write}/edges/${id}`, 'Location: the new object, same prefix');
        const got = await call(api, 'GET', `${read}/edges/${id}`, { key });
        ok(got, 200);
        assert.deepEqual(got.body, created.body);
        const listed = await call(api, 'GET', `${read}/edges?snapshot_id=${f.snapshotId}`, { key });
        ok(listed, 200);
        assert.ok(listed.body.data.some((e: { id: string }) => e.id === id));

        ok(await call(api, 'PUT', `${read}/edges/${id}`, { key, body: { label: 'via the other prefix' } }), 200);
        assert.equal((await call(api, 'GET', `${write}/edges/${id}`, { key })).body.data.label, 'via the other prefix');

        ok(await call(api, 'DELETE', `${read}/edges/${id}`, { key }), 200);
        assert.equal((await call(api, 'GET', `${write}/edges/${id}`, { key })).status, 404);
      });

      it('a brain: create, read, list', async () => {
        const created = await call(api, 'POST', `${write}/brains`, { key, body: { name: `Brain via ${write}` } });
        ok(created, 201);
        const id = created.body.data.id as string;
        assert.equal(created.headers.location, `${write}/brains/${id}`, 'Location: the new object, same prefix');
        const got = await call(api, 'GET', `${read}/brains/${id}`, { key });
        ok(got, 200);
        assert.deepEqual(got.body, created.body);
        const listed = await call(api, 'GET', `${read}/brains`, { key });
        assert.ok(listed.body.data.some((b: { id: string }) => b.id === id));
      });
    });
  }

  it('both prefixes list the same things', async () => {
    for (const path of ['/snapshots', `/edges?brain_id=${f.brainId}`, '/brains', `/brains/${f.brainId}`]) {
      const a = await call(api, 'GET', `/v1${path}`, { key });
      const b = await call(api, 'GET', `/api/v1${path}`, { key });
      ok(a, 200);
      assert.deepEqual(b.body, a.body, path);
    }
  });

  it('both prefixes refuse the same bad request with the same error', async () => {
    const a = await call(api, 'POST', '/v1/edges', { key, body: { source_id: f.snapshotId, edge_type: 'loves' } });
    const b = await call(api, 'POST', '/api/v1/edges', { key, body: { source_id: f.snapshotId, edge_type: 'loves' } });
    assert.equal(a.status, 400);
    assert.equal(b.status, a.status);
    assert.deepEqual(b.body.error, a.body.error);
  });
});

describe('documentation and health, without a key', { skip: testBackend !== 'sqlite' }, () => {
  let api: TestApi;
  let doc: any;

  before(async () => {
    api = await startTestApi();
    const response = await call(api, 'GET', '/v1/openapi.json');
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.match(String(response.headers['content-type']), /^application\/json/);
    doc = response.body;
  });
  after(() => api.close());

  /** Follows `$ref`s inside the document, e.g. "#/components/schemas/Snapshot". */
  const resolve = (schema: any): any => {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
      assert.match(current.$ref, /^#\//, 'only local references');
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((node: any, part: string) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    }
    return current;
  };

  const bodySchema = (path: string, method: string) => {
    const operation = doc.paths?.[path]?.[method];
    assert.ok(operation, `${method.toUpperCase()} ${path} is documented`);
    const schema = resolve(operation.requestBody?.content?.['application/json']?.schema);
    assert.ok(schema, `${method.toUpperCase()} ${path} documents an application/json body`);
    return schema;
  };

  it('GET /v1/openapi.json is an OpenAPI 3.1 document', () => {
    assert.equal(typeof doc.openapi, 'string');
    assert.ok(doc.openapi.startsWith('3.1'), `openapi is ${doc.openapi}`);
    assert.equal(typeof doc.info?.title, 'string');
  });

  const documented: [string, string[]][] = [
    ['/v1/snapshots', ['get', 'post']],
    ['/v1/snapshots/{id}', ['get', 'put', 'delete']],
    ['/v1/edges', ['get', 'post']],
    ['/v1/edges/{id}', ['get', 'put', 'delete']],
    ['/v1/brains', ['get', 'post']],
    ['/v1/brains/{id}', ['get']],
  ];
  for (const [path, methods] of documented) {
    it(`documents ${methods.map((m) => m.toUpperCase()).join(', ')} ${path}`, () => {
      assert.ok(doc.paths?.[path], `${path} in ${Object.keys(doc.paths ?? {}).join(', ')}`);
      for (const method of methods) assert.ok(doc.paths[path][method], `${method.toUpperCase()} ${path}`);
    });
  }

  it('the POST /v1/snapshots body: additionalProperties false, name and core required', () => {
    const schema = bodySchema('/v1/snapshots', 'post');
    assert.equal(schema.additionalProperties, false);
    assert.ok(Array.isArray(schema.required));
    for (const field of ['name', 'core']) assert.ok(schema.required.includes(field), `${field} is required`);
    for (const field of ['id', 'source_type', 'created_at']) assert.ok(!schema.required.includes(field));
  });

  it('the POST /v1/edges body: additionalProperties false, source_id, target_id and edge_type required', () => {
    const schema = bodySchema('/v1/edges', 'post');
    assert.equal(schema.additionalProperties, false);
    for (const field of ['source_id', 'target_id', 'edge_type']) {
      assert.ok(schema.required?.includes(field), `${field} is required`);
    }
  });

  it('declares a bearer security scheme, required by the API operations', () => {
    const schemes = Object.entries(doc.components?.securitySchemes ?? {}) as [string, any][];
    const bearer = schemes.find(([, s]) => s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer');
    assert.ok(bearer, `a bearer scheme among ${JSON.stringify(doc.components?.securitySchemes)}`);
    const name = bearer[0];
    const operation = doc.paths['/v1/snapshots'].post;
    const security = operation.security ?? doc.security ?? [];
    assert.ok(
      security.some((requirement: Record<string, unknown>) => name in requirement),
      'POST /v1/snapshots requires the bearer scheme',
    );
  });

  for (const start of ['/v1/docs', '/api/v1/docs']) {
    it(`GET ${start} (following redirects) is an HTML page`, async () => {
      let url = start;
      let response = await call(api, 'GET', url);
      for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 5; hops++) {
        const location = response.headers.location;
        assert.equal(typeof location, 'string', 'a redirect names its location');
        url = new URL(String(location), `http://localhost${url}`).pathname;
        response = await call(api, 'GET', url);
      }
      assert.equal(response.status, 200);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(response.raw.body, /<html/i);
      assert.ok(url.startsWith(start), `stayed under ${start}: ${url}`);
    });
  }

  it('GET /healthz -> 200 {status: "ok"}', async () => {
    const response = await call(api, 'GET', '/healthz');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ok' });
  });

  it('GET /readyz -> 200', async () => {
    const response = await call(api, 'GET', '/readyz');
    assert.equal(response.status, 200, JSON.stringify(response.body));
  });
});
