// The OpenAPI document (design §3.1) describes every memories route and POST /v1/ingest, with
// their strict bodies and the memory object.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from '../helpers/harness.js';

describe('OpenAPI: memories and ingestion', () => {
  let api: TestApi;
  let doc: any;
  before(async () => {
    api = await startTestApi();
    const response = await api.request('GET', '/v1/openapi.json');
    assert.equal(response.status, 200);
    doc = response.body;
  });
  after(() => api.close());

  const resolve = (schema: any): any => {
    let current = schema;
    while (current?.$ref) {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((node: any, part: string) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    }
    return current;
  };
  const operation = (path: string, method: string) => {
    const found = doc.paths?.[path]?.[method];
    assert.ok(found, `${method.toUpperCase()} ${path} in ${Object.keys(doc.paths ?? {}).join(', ')}`);
    return found;
  };
  const body = (path: string, method: string) =>
    resolve(operation(path, method).requestBody?.content?.['application/json']?.schema);

  const documented: [string, string[]][] = [
    ['/v1/memories', ['get', 'post']],
    ['/v1/memories/remember', ['post']],
    ['/v1/memories/search', ['post']],
    ['/v1/memories/{id}', ['get', 'put', 'delete']],
    ['/v1/memories/{id}/crystallize', ['post']],
    ['/v1/ingest', ['post']],
  ];
  for (const [path, methods] of documented) {
    it(`documents ${methods.map((m) => m.toUpperCase()).join(', ')} ${path}`, () => {
      for (const method of methods) assert.ok(operation(path, method).responses, `${method} ${path} responses`);
    });
  }

  it('the create body is strict, content required, the seven memory types listed', () => {
    const schema = body('/v1/memories', 'post');
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(schema.required, ['content']);
    const types = JSON.stringify(schema.properties.memory_type);
    for (const type of ['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event']) {
      assert.ok(types.includes(type), type);
    }
    assert.equal(schema.properties.emotional_valence.anyOf[0].minimum, -1);
  });

  it('the 201 of POST /v1/memories has every field of a memory', () => {
    const created = resolve(operation('/v1/memories', 'post').responses['201'].content['application/json'].schema);
    const memory = resolve(created.properties.data);
    for (const field of [
      'id',
      'brain_id',
      'content',
      'memory_type',
      'speaker',
      'tags',
      'source_emotion',
      'emotional_valence',
      'emotional_intensity',
      'promoted_to',
      'created_at',
      'updated_at',
    ]) {
      assert.ok(memory.properties[field], field);
    }
  });

  it('POST /v1/ingest: strict, content required; promotion answers 200 and 201', () => {
    const schema = body('/v1/ingest', 'post');
    assert.equal(schema.additionalProperties, false);
    assert.deepEqual(schema.required, ['content']);
    const promote = operation('/v1/memories/{id}/crystallize', 'post');
    assert.ok(promote.responses['200'] && promote.responses['201']);
  });
});
