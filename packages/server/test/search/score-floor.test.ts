// Design §8.5: in every search (snapshots, memories, knowledge) a result that matches a query
// word scores at least 0.01. A word most of a small brain holds has almost no weight in BM25
// (FTS5 floors its IDF at 1e-6), so next to a rare word's match its matches used to show 0.0000.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const COMMON = [
  'The garden needs water every morning',
  'Water the tomatoes before noon',
  'Rain water fills the barrel',
];
const RARE = 'A zebra crossed the garden path with water on its back';

describe('the 0.01 score floor', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  const floorHolds = (data: { score: number; similarity?: string }[], min: number) => {
    assert.ok(data.length >= min, `${data.length} results`);
    for (const result of data) {
      assert.ok(result.score >= 0.01, `score ${result.score}`);
      if (result.similarity !== undefined) assert.notEqual(result.similarity, '0.0000');
    }
    // The order is still the relevance's: the rare word's match first.
    assert.ok(data[0]!.score > data.at(-1)!.score);
  };

  it('memory search', async () => {
    for (const content of [...COMMON, RARE]) {
      const res = await api.request('POST', '/v1/memories', { key, body: { content } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const found = await api.request('POST', '/v1/memories/search', { key, body: { query: 'zebra water' } });
    floorHolds(found.body.data, 4);
    assert.match(found.body.data[0].content, /zebra/);
  });

  it('snapshot search, with and without the graph', async () => {
    for (const [i, core] of [...COMMON, RARE].entries()) {
      const res = await api.request('POST', '/v1/snapshots', {
        key,
        body: { name: `Note ${i}`, core, type: 'Belief' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    for (const graph of ['true', 'false']) {
      const found = await api.request('GET', `/v1/snapshots/search?q=zebra%20water&graph=${graph}`, { key });
      assert.equal(found.status, 200, JSON.stringify(found.body));
      floorHolds(found.body.data, 4);
    }
  });

  it('knowledge search', async () => {
    const res = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: {
        source_type: 'manual',
        title: 'Watering',
        content: [...COMMON, RARE].map((text) => `${text}. ${text}, as every gardener learns in time.`).join('\n\n'),
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const found = await api.request('POST', '/v1/specific-knowledge/search', { key, body: { query: 'zebra water' } });
    floorHolds(found.body.data, 2);
  });
});
