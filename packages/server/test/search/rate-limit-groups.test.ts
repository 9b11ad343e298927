import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/** Design §5.2 and §9.2: search has its own window; a snapshot's suggestions count with the edges. */
describe('rate-limit groups of search and suggestions', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ rateLimits: true });
    key = await api.newKey({ plan: 'free' });
  });
  after(() => api.close());

  it('search is limited as "GET /snapshots/search" (Free: 30/min, 5/s), apart from snapshot reads', async () => {
    const search = await api.request('GET', '/v1/snapshots/search?q=anything', { key });
    assert.equal(search.status, 200);
    assert.equal(search.headers['x-ratelimit-limit'], '30');
    assert.equal(search.headers['x-ratelimit-remaining'], '29');
    const mirror = await api.request('GET', '/api/v1/snapshots/search?q=anything', { key });
    assert.equal(mirror.headers['x-ratelimit-remaining'], '28', 'both prefixes share one window');
    const read = await api.request('GET', '/v1/snapshots', { key });
    assert.equal(read.headers['x-ratelimit-limit'], '60');
    assert.equal(read.headers['x-ratelimit-remaining'], '59', 'searches did not use the read window');
    for (let i = 0; i < 3; i++) await api.request('GET', '/v1/snapshots/search?q=x', { key });
    const refused = await api.request('GET', '/v1/snapshots/search?q=x', { key });
    assert.equal(refused.status, 429, 'the sixth search in a second is over the burst of 5');
    assert.equal(refused.body.error.code, 'RATE_LIMITED');
  });

  it('suggestions use the edges window (Free: 60/min)', async () => {
    const other = await api.newKey({ plan: 'free' });
    const made = await api.request('POST', '/v1/snapshots', { key: other, body: { name: 'n', core: 'c' } });
    const edges = await api.request('GET', `/v1/edges?brain_id=${other.brainId}`, { key: other });
    assert.equal(edges.headers['x-ratelimit-remaining'], '59');
    const res = await api.request('GET', `/v1/snapshots/${made.body.data.id}/suggestions`, { key: other });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers['x-ratelimit-limit'], '60');
    assert.equal(res.headers['x-ratelimit-remaining'], '58');
  });
});

/** Design §5.2, §12, §13.3: every memories route counts in `memories`; POST /v1/ingest in `knowledge`. */
describe('rate-limit groups of memories and ingestion', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ rateLimits: true });
  });
  after(() => api.close());

  it('every memories route shares the "memories" window (Free: 60/min), on both prefixes', async () => {
    const key = await api.newKey({ plan: 'free' });
    const made = await api.request('POST', '/v1/memories', { key, body: { content: 'Deploys go out on Tuesdays' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.headers['x-ratelimit-limit'], '60');
    assert.equal(made.headers['x-ratelimit-remaining'], '59');
    const id = made.body.data.id as string;
    const requests: [string, string, unknown?][] = [
      ['POST', '/api/v1/memories/remember', { content: 'Another memory' }],
      ['GET', '/v1/memories'],
      ['GET', `/api/v1/memories/${id}`],
      ['PUT', `/v1/memories/${id}`, { tags: ['ops'] }],
      ['POST', '/v1/memories/search', { query: 'deploys' }],
      ['POST', `/v1/memories/${id}/crystallize`, { auto_link: false }],
      ['DELETE', `/v1/memories/${id}`],
    ];
    let remaining = 59;
    for (const [method, path, body] of requests) {
      // Stay under the burst of 10 per second.
      if (remaining === 52) await new Promise((resolve) => setTimeout(resolve, 1100));
      const res = await api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
      assert.ok(res.status < 300, `${method} ${path}: ${JSON.stringify(res.body)}`);
      remaining -= 1;
      assert.equal(res.headers['x-ratelimit-limit'], '60', `${method} ${path}`);
      assert.equal(res.headers['x-ratelimit-remaining'], String(remaining), `${method} ${path}`);
    }
    const read = await api.request('GET', '/v1/snapshots', { key });
    assert.equal(read.headers['x-ratelimit-remaining'], '59', 'memories did not use the snapshot read window');
  });

  it('POST /v1/ingest counts in "knowledge" (Free: 10/min), with specific-knowledge', async () => {
    const key = await api.newKey({ plan: 'free' });
    const res = await api.request('POST', '/v1/ingest', {
      key,
      body: { content: 'Deploys go out on Tuesdays, after the review.', auto_link: false },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers['x-ratelimit-limit'], '10');
    assert.equal(res.headers['x-ratelimit-remaining'], '9');
    const search = await api.request('POST', '/v1/specific-knowledge/search', { key, body: { query: 'deploys' } });
    assert.equal(search.headers['x-ratelimit-remaining'], '8');
  });
});
