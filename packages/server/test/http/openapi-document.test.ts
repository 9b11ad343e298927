// The OpenAPI document as client generators and validating proxies read it (issue 22): every
// operation named, optional parameters optional, one named Error body behind per-status error
// responses, headers and servers declared, examples that match their schemas, and responses
// that match the document. The rules are checked over the whole served document, so a route
// added later that breaks one fails here.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, snapshotBody, type TestApi, type TestKey } from '../helpers/harness.js';
import { documentValidator, operationsOf, type DocumentValidator } from '../helpers/openapi.js';
import { call, roomyKey } from './support.js';

/** The codes of design §4.2 and the README's error table. */
const OUR_CODES = [
  'BAD_REQUEST',
  'INVALID_JSON',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'INTERNAL',
  'PROVIDER_ERROR',
  'PROVIDER_UNAVAILABLE',
  'SERVICE_UNAVAILABLE',
];

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

describe('the OpenAPI document', () => {
  let api: TestApi;
  let doc: any;
  let validator: DocumentValidator;

  before(async () => {
    api = await startTestApi();
    const response = await call(api, 'GET', '/v1/openapi.json');
    assert.equal(response.status, 200);
    doc = response.body;
    validator = documentValidator(doc);
  });
  after(() => api.close());

  const operations = () => operationsOf(doc);
  const isPublic = (operation: any) => Array.isArray(operation.security) && operation.security.length === 0;
  const component = (ref: string) => {
    assert.match(ref, /^#\/components\//, `a local component: ${ref}`);
    return ref
      .slice(2)
      .split('/')
      .reduce((node: any, part: string) => node?.[part], doc);
  };
  const headersOf = (response: any) => (response.$ref ? component(response.$ref) : response).headers ?? {};

  it('POST /v1/brains/import takes the export file as NDJSON or GraphML', () => {
    const body = doc.paths['/v1/brains/import'].post.requestBody;
    assert.equal(body.required, true);
    assert.deepEqual(Object.keys(body.content).sort(), ['application/graphml+xml', 'application/x-ndjson']);
    for (const { schema } of Object.values<any>(body.content)) assert.equal(component(schema.$ref).format, 'binary');
  });

  it('every POST that needs a key takes Idempotency-Key; those that can run as a job take Prefer', () => {
    const header = (operation: any, name: string) =>
      (operation.parameters ?? []).find((p: any) => p.in === 'header' && p.name === name);
    const posts = Object.entries<any>(doc.paths).flatMap(([path, item]) => (item.post ? [[path, item.post]] : []));
    assert.ok(posts.length >= 10);
    for (const [path, operation] of posts) {
      if (isPublic(operation)) continue;
      const key = header(operation, 'Idempotency-Key');
      assert.ok(key, `${path} declares Idempotency-Key`);
      assert.equal(key.required, false);
      assert.equal(key.schema.maxLength, 255);
    }
    const async = posts.filter(([, operation]) => header(operation, 'Prefer')).map(([path]) => path);
    assert.deepEqual(async.sort(), ['/v1/crystallize', '/v1/ingest', '/v1/specific-knowledge/ingest']);
  });

  describe('names generated clients use', () => {
    it('every operation has a unique camelCase operationId, a verb then its object', () => {
      const seen = new Map<string, string>();
      for (const { method, path, operation } of operations()) {
        const id = operation.operationId;
        const where = `${method.toUpperCase()} ${path}`;
        assert.equal(typeof id, 'string', `${where}: add operationId to the route's schema, e.g. listSnapshots`);
        assert.match(id, /^[a-z]+[A-Z][A-Za-z0-9]*$/, `${where}: camelCase, e.g. getSnapshotSuggestions`);
        assert.ok(!seen.has(id), `${id} is used by ${seen.get(id)} and ${method.toUpperCase()} ${path}`);
        seen.set(id, `${method.toUpperCase()} ${path}`);
      }
    });

    it('the operations the client package calls by name', () => {
      const ids = new Map(
        operations().map(({ method, path, operation }) => [`${method} ${path}`, operation.operationId]),
      );
      const expected: Record<string, string> = {
        'get /v1/snapshots': 'listSnapshots',
        'post /v1/snapshots': 'createSnapshot',
        'get /v1/snapshots/search': 'searchSnapshots',
        'get /v1/snapshots/{id}': 'getSnapshot',
        'put /v1/snapshots/{id}': 'updateSnapshot',
        'delete /v1/snapshots/{id}': 'deleteSnapshot',
        'get /v1/snapshots/{id}/suggestions': 'getSnapshotSuggestions',
        'get /v1/edges': 'listEdges',
        'post /v1/edges': 'createEdge',
        'get /v1/edges/{id}': 'getEdge',
        'put /v1/edges/{id}': 'updateEdge',
        'delete /v1/edges/{id}': 'deleteEdge',
        'get /v1/brains': 'listBrains',
        'post /v1/brains': 'createBrain',
        'get /v1/brains/{id}': 'getBrain',
        'put /v1/brains/{id}': 'updateBrain',
      };
      for (const [operation, id] of Object.entries(expected)) assert.equal(ids.get(operation), id, operation);
    });

    it('every operation has a summary and a tag', () => {
      for (const { method, path, operation } of operations()) {
        assert.ok(operation.summary, `${method.toUpperCase()} ${path} has a summary`);
        assert.ok(operation.tags?.length, `${method.toUpperCase()} ${path} has a tag`);
      }
    });

    it('schemas are named components, never def-N', () => {
      const names = Object.keys(doc.components?.schemas ?? {});
      for (const name of ['Snapshot', 'Edge', 'Brain', 'Error', 'SnapshotCreate', 'EdgeCreate', 'SearchResult']) {
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      }
      for (const name of names) assert.match(name, /^[A-Z][A-Za-z0-9]*$/, `a readable component name: ${name}`);
      assert.doesNotMatch(
        JSON.stringify(doc),
        /def-\d+/,
        'no def-N: give the TypeBox schema a title (or an $id that is a name)',
      );
    });

    it('request and response bodies refer to named schemas', () => {
      for (const { method, path, operation } of operations()) {
        const bodies = [
          ...Object.values<any>(operation.requestBody?.content ?? {}),
          ...Object.values<any>(operation.responses)
            .filter((response) => !response.$ref)
            .flatMap((response) => Object.values<any>(response.content ?? {})),
        ];
        for (const media of bodies) {
          assert.match(
            String(media.schema?.$ref),
            /^#\/components\/schemas\//,
            `${method.toUpperCase()} ${path}: give the body's TypeBox schema a title, its component name`,
          );
        }
      }
    });
  });

  describe('parameters', () => {
    it('a parameter with a default is optional (limit, offset, min_strength, graph, explain …)', () => {
      let defaults = 0;
      for (const { method, path, operation } of operations()) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.schema?.default === undefined) continue;
          defaults += 1;
          assert.notEqual(parameter.required, true, `${method.toUpperCase()} ${path}: ${parameter.name}`);
        }
      }
      assert.ok(defaults >= 10, `${defaults} parameters with defaults`);
    });

    it('the list parameters of design §5.1 are optional with their defaults and bounds', () => {
      const parameter = (path: string, name: string) =>
        doc.paths[path].get.parameters.find((p: any) => p.name === name && p.in === 'query');
      for (const [path, name, fallback, max] of [
        ['/v1/snapshots', 'limit', 50, 100],
        ['/v1/snapshots', 'offset', 0, undefined],
        ['/v1/edges', 'limit', 50, 200],
        ['/v1/edges', 'offset', 0, undefined],
        ['/v1/edges', 'min_strength', 0, 1],
        ['/v1/brains', 'limit', 50, 100],
        ['/v1/brains', 'offset', 0, undefined],
      ] as const) {
        const found = parameter(path, name);
        assert.ok(found, `${path} ${name}`);
        assert.equal(found.required, false, `${path} ${name} is optional`);
        assert.equal(found.schema.default, fallback, `${path} ${name} default`);
        if (max !== undefined) assert.equal(found.schema.maximum, max, `${path} ${name} maximum`);
      }
    });

    it('lengths are minLength/maxLength, not only x- extensions', () => {
      const create = doc.components.schemas.SnapshotCreate.properties;
      assert.equal(create.name.minLength, 1);
      assert.equal(create.name.maxLength, 200);
      assert.equal(create.core.maxLength, 10_000);
      assert.equal(create.one_liner.anyOf.find((s: any) => s.type === 'string').maxLength, 500);
      const tags = create.tags.anyOf.find((s: any) => s.type === 'array');
      assert.equal(tags.maxItems, 50);
      assert.equal(tags.items.maxLength, 64);
      const walk = (node: any, where: string): void => {
        if (typeof node !== 'object' || node === null) return;
        if (node['x-trimmed-length']) {
          const { min, max } = node['x-trimmed-length'];
          assert.equal(node.minLength, min, `${where}: minLength`);
          assert.equal(node.maxLength, max, `${where}: maxLength`);
        }
        for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
      };
      walk(doc, '#');
    });
  });

  describe('errors', () => {
    it('one Error schema whose error.code is the enumeration of our codes', () => {
      const error = doc.components.schemas.Error;
      const code = error.properties.error.properties.code;
      const codes = (code.$ref ? component(code.$ref) : code).enum;
      assert.deepEqual([...codes].sort(), [...OUR_CODES].sort());
      assert.deepEqual([...error.required].sort(), ['error', 'request_id']);
    });

    it('no operation copies the error body inline or answers with a 4XX/5XX range', () => {
      const looksLikeError = (schema: any) => schema?.properties?.error && schema?.properties?.request_id;
      for (const { method, path, operation } of operations()) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const where = `${method.toUpperCase()} ${path} ${status}`;
          assert.match(status, /^\d{3}$/, `${where}: name the status (errorResponses(400, 404, …))`);
          if (response.$ref) continue;
          for (const media of Object.values<any>(response.content ?? {})) {
            assert.ok(!looksLikeError(media.schema), `${where}: refer to #/components/responses, not a copy`);
          }
          if (Number(status) >= 400 && !isPublic(operation)) {
            assert.fail(`${where}: an error response must be one of #/components/responses`);
          }
        }
      }
    });

    it('every authenticated operation declares 401, 429 and 500, and 400 wherever it takes input', () => {
      for (const { method, path, operation } of operations()) {
        if (isPublic(operation)) continue;
        const statuses = Object.keys(operation.responses);
        for (const status of ['401', '429', '500']) {
          assert.ok(statuses.includes(status), `${method.toUpperCase()} ${path} declares ${status}`);
        }
        if (operation.parameters?.length || operation.requestBody) {
          assert.ok(statuses.includes('400'), `${method.toUpperCase()} ${path} declares 400`);
        }
        if (operation.requestBody) {
          for (const status of ['413', '415']) {
            assert.ok(statuses.includes(status), `${method.toUpperCase()} ${path} declares ${status}`);
          }
        }
      }
    });

    it('the statuses each route can answer, per the contract', () => {
      const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses);
      for (const status of ['400', '404', '409', '422']) assert.ok(statuses('/v1/edges', 'post').includes(status));
      assert.ok(statuses('/v1/edges/{id}', 'put').includes('409'));
      for (const [path, method] of [
        ['/v1/snapshots/{id}', 'get'],
        ['/v1/edges/{id}', 'delete'],
        ['/v1/brains/{id}', 'get'],
        ['/v1/snapshots/{id}/suggestions', 'get'],
      ]) {
        assert.ok(statuses(path as string, method as string).includes('404'), `${method} ${path} 404`);
      }
    });

    it('each error status is a response component with the Error body and its own headers', () => {
      const responses = doc.components.responses;
      const byStatus: Record<string, string[]> = {
        BadRequest: [],
        Unauthorized: ['WWW-Authenticate'],
        NotFound: [],
        MethodNotAllowed: ['Allow'],
        Conflict: [],
        PayloadTooLarge: [],
        UnsupportedMediaType: [],
        Unprocessable: [],
        RateLimited: ['Retry-After'],
        Internal: [],
        ServiceUnavailable: ['Retry-After'],
      };
      for (const [name, own] of Object.entries(byStatus)) {
        const response = responses[name];
        assert.ok(response, `#/components/responses/${name}`);
        assert.equal(response.content['application/json'].schema.$ref, '#/components/schemas/Error');
        for (const header of ['X-Request-Id', ...RATE_LIMIT_HEADERS, ...own]) {
          assert.equal(response.headers[header]?.$ref, `#/components/headers/${header}`, `${name} ${header}`);
        }
      }
    });
  });

  describe('headers and servers', () => {
    it('the headers are reusable components', () => {
      const headers = doc.components.headers;
      for (const name of [
        'Location',
        'X-Request-Id',
        ...RATE_LIMIT_HEADERS,
        'Retry-After',
        'WWW-Authenticate',
        'Allow',
      ]) {
        assert.ok(headers[name]?.schema, `#/components/headers/${name}`);
        assert.ok(headers[name].description, `${name} is described`);
      }
    });

    it('every response names X-Request-Id, and the rate-limit headers when a key is needed', () => {
      for (const { method, path, operation } of operations()) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const headers = headersOf(response);
          const expected = ['X-Request-Id', ...(isPublic(operation) ? [] : RATE_LIMIT_HEADERS)];
          for (const name of expected) {
            assert.equal(headers[name]?.$ref, `#/components/headers/${name}`, `${method} ${path} ${status} ${name}`);
          }
        }
      }
    });

    it('every 201 names Location; search names Cache-Control', () => {
      let created = 0;
      for (const { method, path, operation } of operations()) {
        const response = operation.responses['201'];
        if (!response) continue;
        created += 1;
        assert.equal(headersOf(response).Location?.$ref, '#/components/headers/Location', `${method} ${path}`);
      }
      assert.ok(created >= 3);
      const search = doc.paths['/v1/snapshots/search'].get.responses['200'];
      assert.equal(search.headers['Cache-Control'].$ref, '#/components/headers/Cache-Control');
    });

    it('servers: this server, and /api for the /api/v1 alias', () => {
      const urls = doc.servers.map((server: any) => server.url);
      assert.deepEqual(urls, ['/', '/api']);
      for (const path of Object.keys(doc.paths).filter((p) => p.startsWith('/v1/'))) {
        assert.ok(!path.startsWith('/api/'), `${path} is listed once, under /v1`);
      }
    });
  });

  describe('examples', () => {
    it('every example in the document matches its schema', () => {
      const checked = validator.checkExamples();
      assert.deepEqual(checked.failures, []);
      assert.ok(checked.count >= 20, `${checked.count} examples checked`);
    });
  });

  describe('responses match the document', () => {
    let key: TestKey;
    before(async () => {
      key = await roomyKey(api);
    });

    const matches = (path: string, method: string, status: number, body: unknown) => {
      const problems = validator.checkResponse(path, method, status, body);
      assert.deepEqual(problems, [], `${method.toUpperCase()} ${path} ${status}: ${JSON.stringify(body)}`);
    };

    it('successes, through both servers', async () => {
      for (const prefix of ['', '/api']) {
        const created = await call(api, 'POST', `${prefix}/v1/snapshots`, { key, body: snapshotBody() });
        assert.equal(created.status, 201);
        matches('/v1/snapshots', 'post', 201, created.body);
        const id = created.body.data.id;
        matches('/v1/snapshots', 'get', 200, (await call(api, 'GET', `${prefix}/v1/snapshots`, { key })).body);
        matches(
          '/v1/snapshots/{id}',
          'get',
          200,
          (await call(api, 'GET', `${prefix}/v1/snapshots/${id}`, { key })).body,
        );
        const brains = await call(api, 'GET', `${prefix}/v1/brains`, { key });
        matches('/v1/brains', 'get', 200, brains.body);
        const search = await call(api, 'GET', `${prefix}/v1/snapshots/search?q=test&explain=true`, { key });
        assert.equal(search.status, 200);
        matches('/v1/snapshots/search', 'get', 200, search.body);
      }
    });

    it('errors: 400, 401, 404 and 405 have the Error body', async () => {
      const invalid = await call(api, 'POST', '/v1/edges', { key, body: { edge_type: 'loves', strength: 2 } });
      assert.equal(invalid.status, 400);
      matches('/v1/edges', 'post', 400, invalid.body);
      const noKey = await call(api, 'GET', '/v1/snapshots');
      assert.equal(noKey.status, 401);
      matches('/v1/snapshots', 'get', 401, noKey.body);
      const missing = await call(api, 'GET', '/v1/edges/edge_01JDQ90A1B3C5D7E9F1G3H5J7K', { key });
      assert.equal(missing.status, 404);
      matches('/v1/edges/{id}', 'get', 404, missing.body);
      const wrongMethod = await call(api, 'PATCH', '/v1/snapshots', { key });
      assert.equal(wrongMethod.status, 405);
      assert.deepEqual(validator.check('#/components/schemas/Error', wrongMethod.body), []);
    });
  });
});
