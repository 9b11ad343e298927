import { get, type IncomingMessage } from 'node:http';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/** Issue 34: bodies that trip recursive code, and the headers every answer carries. */
describe('hostile requests', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  it('an emotion nested 10,000 levels deep is a 400 naming the field, not a 500', async () => {
    const deep = `${'{"a":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    for (const [method, url] of [
      ['POST', '/v1/snapshots'],
      ['POST', '/api/v1/snapshots'],
    ] as const) {
      const response = await api.request(method, url, {
        key,
        rawBody: `{"name":"Deep","core":"Nested feelings","emotion":${deep}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.equal(response.body.error.code, 'BAD_REQUEST');
      assert.equal(response.body.error.details.field, 'emotion');
      assert.match(response.body.error.message, /^emotion is nested more than 64 levels deep/);
    }
    // 4,500 levels (9 KB), the size that overflowed the size check's stack.
    const shallower = `${'{"a":'.repeat(4_500)}{}${'}'.repeat(4_500)}`;
    const created = await api.request('POST', '/v1/snapshots', {
      key,
      rawBody: `{"name":"Deep","core":"Nested feelings","emotion":${shallower}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(created.status, 400);
    // Nesting a real body needs stays fine.
    const fine = await api.request('POST', '/v1/snapshots', {
      key,
      body: { name: 'Shallow', core: 'Nested a little', emotion: { a: { b: { c: [1, { d: 2 }] } } } },
    });
    assert.equal(fine.status, 201, JSON.stringify(fine.body));
  });

  it('every answer carries nosniff, a Content-Security-Policy and frame-ancestors none; the explorer its own policy', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    const created = await api.request('POST', '/v1/snapshots', { key, body: { name: 'Framed', core: 'Never framed' } });
    const auth = { authorization: `Bearer ${key.key}` };
    const answers = [
      await fetch(`${base}/healthz`),
      await fetch(`${base}/v1/snapshots?limit=1`, { headers: auth }),
      // GET one is answered by the fast path (http/fast-path/snapshot-read.ts), outside Fastify's hooks.
      await fetch(`${base}/v1/snapshots/${created.body.data.id}`, { headers: auth }),
      await fetch(`${base}/v1/snapshots`), // 401
      await fetch(`${base}/v1/nowhere`, { headers: auth }), // 404
    ];
    for (const response of answers) {
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', response.url);
      assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, response.url);
      assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/, response.url);
      await response.arrayBuffer();
    }
    const page = await fetch(`${base}/`);
    const policy = page.headers.get('content-security-policy') ?? '';
    assert.match(policy, /default-src 'self'/);
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    await page.text();
    // A revalidated page (304, no content type) keeps the page's policy: its headers replace
    // the cached page's, and the API's policy there would block the explorer's own script.
    const modified = page.headers.get('last-modified');
    assert.ok(modified, 'the explorer page carries Last-Modified');
    // node:http, not fetch: fetch adds Cache-Control: no-cache to a conditional request.
    const again = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`${base}/`, { headers: { 'if-modified-since': modified } }, resolve).on('error', reject),
    );
    again.resume();
    assert.equal(again.statusCode, 304);
    assert.equal(again.headers['content-security-policy'], policy);
    // The API docs page keeps Swagger UI's policy, never framed and without
    // upgrade-insecure-requests: over plain HTTP on a LAN address that left the page blank.
    for (const path of ['/v1/docs/', '/v1/docs/static/swagger-ui-bundle.js']) {
      const docs = await fetch(`${base}${path}`);
      assert.equal(docs.status, 200, path);
      const docsPolicy = docs.headers.get('content-security-policy') ?? '';
      assert.match(docsPolicy, /script-src 'self'/, path);
      assert.match(docsPolicy, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(docsPolicy, /upgrade-insecure-requests/, path);
      await docs.arrayBuffer();
    }
  });
});
