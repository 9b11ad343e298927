// Memory search with an embedding provider (design §12.3: "text, vectors when configured, no
// graph"): a real HTTP server on loopback speaking the OpenAI /embeddings protocol, whose vectors
// are a hashed bag of words, so texts that share words are near.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { embeddingSettings, vectorsSettled } from '../helpers/embeddings.js';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

interface Hit {
  id: string;
  score: number;
  similarity: string;
}

describe('memory search with embeddings', () => {
  let provider: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  let stranger: TestKey;
  const ids: Record<string, string> = {};
  before(async () => {
    provider = await startFakeOpenAI({ dimension: 64 });
    api = await startTestApi({ embeddings: embeddingSettings(provider, 500) });
    key = await api.newKey();
    stranger = await api.newKey();
    const memories: [string, TestKey, Record<string, unknown>][] = [
      ['tidal', key, { content: 'Tidal turbines turn the sea into power', tags: ['energy'] }],
      // Shares no searchable word with "the the the the mango" (stop words match no text), but
      // its many "the"s put it near that query in the fake model's space.
      ['filler', key, { content: 'the the the the the of of of the banana' }],
      ['lunch', key, { content: 'Lunch is at noon on Fridays', memory_type: 'preference' }],
      ['foreign', stranger, { content: 'the the the the of the mango grove' }],
    ];
    for (const [name, owner, body] of memories) {
      const res = await api.request('POST', '/v1/memories', { key: owner, body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids[name] = res.body.data.id;
    }
    await vectorsSettled(api.request, key, key.brainId);
    await vectorsSettled(api.request, stranger, stranger.brainId);
  });
  after(async () => {
    await api.close();
    await provider.close();
  });

  const search = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { data: Hit[]; count: number };
  };
  const embeddedTexts = () => provider.callsTo('embeddings').flatMap((call) => call.body.input as string[]);

  it('computes memory vectors in the background, from the content and the tags', () => {
    assert.ok(
      embeddedTexts().includes('Tidal turbines turn the sea into power\nenergy'),
      JSON.stringify(embeddedTexts()),
    );
  });

  it('fuses meaning with text relevance', async () => {
    const result = await search({ query: 'tidal power' });
    assert.equal(result.data[0]?.id, ids.tidal);
    const best = result.data[0] as Hit;
    // Text alone gives the best match exactly 0.95; half of the fused score is the cosine (< 1).
    assert.ok(best.score > 0.5 && best.score < 0.95, `fused score ${best.score}`);
    assert.equal(best.similarity, best.score.toFixed(4));
  });

  it('brings in a memory near in meaning that shares no word, and counts it, in the brain only', async () => {
    const result = await search({ query: 'the the the the mango' });
    const ids_ = result.data.map((h) => h.id);
    assert.ok(ids_.includes(ids.filler as string), JSON.stringify(result));
    assert.ok(!ids_.includes(ids.foreign as string), "another account's memory never appears");
    assert.equal(result.count, result.data.length, 'meaning-only matches add to count');
    for (const hit of result.data)
      assert.ok(hit.score > 0 && hit.score <= 0.5, 'no text part: half the cosine at most');
    const typed = await search({ query: 'the the the the mango', memory_type: 'preference' });
    assert.ok(!typed.data.some((h) => h.id === ids.filler), 'the memory_type filter holds for meaning matches');
  });

  it('recomputes a changed memory and forgets a deleted one', async () => {
    const put = await api.request('PUT', `/v1/memories/${ids.filler}`, {
      key,
      body: { content: 'Glaciers melt faster every decade' },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await vectorsSettled(api.request, key, key.brainId);
    assert.ok(embeddedTexts().includes('Glaciers melt faster every decade'));
    const after = await search({ query: 'the the the the mango' });
    assert.ok(!after.data.some((h) => h.id === ids.filler), JSON.stringify(after));

    const del = await api.request('DELETE', `/v1/memories/${ids.tidal}`, { key });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    const gone = await search({ query: 'tidal power energy' });
    assert.ok(!gone.data.some((h) => h.id === ids.tidal));
  });

  it('keeps writes and search working while the provider fails, and catches up after', async () => {
    provider.setDefault('embeddings', behave.status(500));
    const made = await api.request('POST', '/v1/memories', { key, body: { content: 'Comets shed dust near the sun' } });
    assert.equal(made.status, 201, 'a write never waits for the provider');
    const brain = await api.request('GET', `/v1/brains/${key.brainId}`, { key });
    assert.ok(brain.body.data.pending_work.embeddings >= 1, 'the memory waits for its vector');
    const textOnly = await search({ query: 'comets dust' });
    assert.equal(textOnly.data[0]?.id, made.body.data.id);
    assert.equal(textOnly.data[0]?.score, 0.95, 'ranked by text alone while the provider is away');
    provider.setDefault('embeddings', behave.ok());
    await vectorsSettled(api.request, key, key.brainId);
    const fused = await search({ query: 'comets dust sun' });
    assert.equal(fused.data[0]?.id, made.body.data.id);
    assert.ok((fused.data[0]?.score ?? 1) < 0.95, 'meaning is back');
  });
});

describe('memory vectors for memories written before a provider was configured', () => {
  it('a process started with a provider queues and embeds every memory without a vector', async () => {
    const provider = await startFakeOpenAI({ dimension: 32 });
    const first = await startTestApi({ backgroundWork: false });
    try {
      const key = await first.newKey();
      const res = await first.request('POST', '/v1/memories', {
        key,
        body: { content: 'Comets shed dust near the sun' },
      });
      assert.equal(res.status, 201);
      await first.app.close();
      const second = await connectTestApi(first.databasePath, { embeddings: embeddingSettings(provider) });
      try {
        await vectorsSettled(second.request, key, key.brainId);
        const texts = provider.callsTo('embeddings').flatMap((call) => call.body.input as string[]);
        assert.ok(texts.includes('Comets shed dust near the sun'), JSON.stringify(texts));
        const found = await second.request('POST', '/v1/memories/search', { key, body: { query: 'comets dust' } });
        assert.ok(found.body.data[0].score < 0.95, 'meaning is fused into the score');
      } finally {
        await second.close();
      }
    } finally {
      await first.close().catch(() => undefined);
      await provider.close();
    }
  });
});
