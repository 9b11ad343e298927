import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/**
 * Issue 46: a lone UTF-16 surrogate is valid JSON (`"\ud800"`) but no text. It was acknowledged
 * as sent and stored as U+FFFD (three on SQLite, one on PostgreSQL); now every body holding one,
 * in any string or key, is a 400 naming the field, on both stores.
 */
describe('lone UTF-16 surrogates in a JSON body', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  it('is a 400 naming the field, and nothing is stored', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/v1/snapshots', { name: 'lone\ud800x', core: 'c' }, 'name'],
      ['POST', '/v1/snapshots', { name: 'ok', core: 'c', tags: ['a', 'b\udc00'] }, 'tags[1]'],
      ['POST', '/v1/snapshots', { name: 'ok', core: 'c', emotion: { 'm\ud83d': 'x' } }, 'emotion.m\ud83d'],
      ['POST', '/v1/memories', { content: 'x\udfffy' }, 'content'],
      ['POST', '/v1/brains', { name: '\ud800' }, 'name'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await api.request(method, path, { key, body });
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'BAD_REQUEST');
      assert.equal(res.body.error.details.field, field);
      assert.match(res.body.error.message, /lone UTF-16 surrogate/);
    }
    const listed = await api.request('GET', '/v1/snapshots', { key });
    assert.equal(listed.body.data.length, 0, 'nothing was stored');
  });

  it('a surrogate pair (an emoji) is text: stored and read back as sent', async () => {
    const created = await api.request('POST', '/v1/snapshots', { key, body: { name: 'Pair 😀', core: 'c 𝄞' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const read = await api.request('GET', `/v1/snapshots/${created.body.data.id}`, { key });
    assert.equal(read.body.data.name, 'Pair 😀');
    assert.equal(read.body.data.core, 'c 𝄞');
  });
});
