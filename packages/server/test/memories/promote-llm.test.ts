// Promotion and ingestion with an LLM provider (design §10, §12.4, §13): the LLM's insights become
// the snapshots; a provider that fails answers 503/502 and nothing is written.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { insightsAnswer } from '../helpers/fake-insights.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const insightsOf = insightsAnswer(['reviews']);

const CONTENT = 'Review every pull request within a day. Deploy small changes often, never on a Friday evening.';

describe('memory promotion and ingestion with an LLM provider', () => {
  let llm: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    llm = await startFakeOpenAI();
    api = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 1_000, contextTokens: 512 },
    });
    key = await api.newKey();
  });
  after(async () => {
    await api.close();
    await llm.close();
  });
  beforeEach(() => {
    llm.calls.length = 0;
    llm.setDefault('chat', behave.answer({ content: insightsOf }));
  });

  const snapshotCount = async () =>
    (await api.request('GET', `/v1/brains/${key.brainId}`, { key })).body.data.snapshot_count as number;

  it('a provider that refuses: 503, the memory stays unpromoted and no snapshot is made; then it promotes', async () => {
    const memory = (await api.request('POST', '/v1/memories', { key, body: { content: CONTENT, tags: ['team'] } })).body
      .data;
    const before = await snapshotCount();
    llm.script('chat', behave.status(429, { retryAfter: 3 }));
    const refused = await api.request('POST', `/v1/memories/${memory.id}/crystallize`, { key });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'PROVIDER_UNAVAILABLE');
    assert.equal(await snapshotCount(), before);
    assert.deepEqual((await api.request('GET', `/v1/memories/${memory.id}`, { key })).body.data, memory);

    const res = await api.request('POST', `/v1/memories/${memory.id}/crystallize`, { key });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.snapshots.length, 2, 'one snapshot per insight the LLM found');
    for (const snapshot of res.body.data.snapshots) {
      assert.equal(snapshot.type, 'Rule');
      assert.equal(snapshot.source_type, 'memory');
      assert.equal(snapshot.source_id, memory.id);
      assert.deepEqual(snapshot.tags, ['team', 'reviews'], "the memory's tags, then the LLM's");
    }
    assert.equal(res.body.data.memory.promoted_to, res.body.data.snapshots[0].id);
  });

  it('ingestion: an LLM that answers invalid JSON twice gives 502, and nothing is written', async () => {
    const before = await snapshotCount();
    llm.script('chat', behave.invalidJson(), behave.invalidJson());
    const res = await api.request('POST', '/v1/ingest', { key, body: { content: CONTENT, extract_memories: true } });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'PROVIDER_ERROR');
    assert.equal(await snapshotCount(), before);
    const memories = await api.request('GET', '/v1/memories', { key });
    assert.equal(memories.body.count, 1, 'only the memory of the first test');
  });
});
