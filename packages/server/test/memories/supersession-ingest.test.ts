// Design §6.1: a memory extracted by POST /v1/ingest that restates an earlier memory's fact with
// another value supersedes it, as one created directly does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from '../helpers/harness.js';

describe('supersession of memories extracted by ingest', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  it('the extracted memory replaces the earlier one; the answer and the store say so', async () => {
    const key = await api.newKey();
    const old = await api.request('POST', '/v1/memories', {
      key,
      body: { content: 'We decided the platform team has 12 engineers.', occurred_at: '2020-01-01T00:00:00Z' },
    });
    assert.equal(old.status, 201, JSON.stringify(old.body));
    const ingested = await api.request('POST', '/v1/ingest', {
      key,
      body: { content: 'We decided the platform team has 15 engineers.', extract_memories: true },
    });
    assert.equal(ingested.status, 201, JSON.stringify(ingested.body));
    const memories = ingested.body.data.memories as { id: string; content: string }[];
    const extracted = memories.find((m) => m.content.includes('15 engineers'));
    assert.ok(extracted, JSON.stringify(memories));
    const stored = (await api.request('GET', `/v1/memories/${old.body.data.id}`, { key })).body.data;
    assert.equal(stored.superseded_by, extracted.id);
  });
});
