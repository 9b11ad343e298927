import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { embeddingSettings as settings, vectorsSettled } from '../helpers/embeddings.js';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/**
 * Search with an embedding provider: a real HTTP server on loopback speaking the OpenAI
 * /embeddings protocol, whose vectors are a hashed bag of words (texts sharing words are near).
 */
describe('search with embeddings', () => {
  let provider: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    provider = await startFakeOpenAI({ dimension: 64 });
    api = await startTestApi({ embeddings: settings(provider, 500) });
    key = await api.newKey();
  });
  after(async () => {
    await api.close();
    await provider.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/snapshots', { key, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string };
  };

  it('computes vectors in the background and fuses meaning with text', async () => {
    const a = await create({ name: 'Tidal energy', core: 'Tidal turbines turn the sea into power' });
    const b = await create({ name: 'the the the the', core: 'the the the the the of of of the banana' });
    await vectorsSettled(api.request, key, key.brainId);
    const embedded = provider.callsTo('embeddings').flatMap((call) => call.body.input as string[]);
    assert.ok(
      embedded.some((text) => text.includes('Tidal turbines')),
      'the snapshot text went to the provider',
    );
    const res = await api.request('GET', '/v1/snapshots/search?q=tidal%20power&explain=true', { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [hit] = res.body.data;
    assert.equal(hit.id, a.id);
    assert.equal(hit.explain.method, 'text+semantic+graph');
    assert.ok(typeof hit.explain.semantic === 'number' && hit.explain.semantic > 0 && hit.explain.semantic <= 1);
    assert.equal(hit.explain.note, undefined);
    // A meaning match shares no word with the query: here only the fake model's "the"s.
    const meaning = await api.request(
      'GET',
      `/v1/snapshots/search?q=${encodeURIComponent('the the the the mango')}&explain=true`,
      { key },
    );
    assert.ok(
      meaning.body.data.some((r: { id: string }) => r.id === b.id),
      JSON.stringify(meaning.body),
    );
    const found = meaning.body.data.find((r: { id: string }) => r.id === b.id);
    assert.equal(found.explain.text, 0);
    assert.ok(found.explain.semantic >= 0.3);
    assert.ok(meaning.body.count >= 1);

    // Linking finds it too: a suggestion by meaning alone, with no distinctive word in common.
    const c = await create({ name: 'the of the the', core: 'the the the the of of the the mango' });
    await vectorsSettled(api.request, key, key.brainId);
    const suggested = await api.request('GET', `/v1/snapshots/${c.id}/suggestions`, { key });
    const byMeaning = suggested.body.data.find((s: { source_id: string; target_id: string }) =>
      [s.source_id, s.target_id].includes(b.id),
    );
    assert.ok(byMeaning, JSON.stringify(suggested.body));
    assert.match(byMeaning.reason, /^similar meaning \(cosine 0\.\d\d\)/);
  });

  it('a provider that fails its start-up probe is reported unavailable by /readyz at once', async () => {
    const down = await startFakeOpenAI({ dimension: 64 });
    down.setDefault('embeddings', behave.status(500));
    const starting = await startTestApi({ embeddings: settings(down, 500) });
    try {
      const ready = await starting.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().status, 'degraded');
      assert.equal(ready.json().checks.embeddings, 'unavailable');
    } finally {
      await starting.close();
      await down.close();
    }
  });

  it('keeps every write and every search working while the provider fails, and catches up after', async () => {
    provider.setDefault('embeddings', behave.status(500));
    const made = await create({ name: 'Glacier melt', core: 'Glaciers melt faster every decade' });
    const pending = await api.request('GET', `/v1/brains/${key.brainId}`, { key });
    assert.ok(pending.body.data.pending_work.embeddings >= 1);
    const res = await api.request('GET', '/v1/snapshots/search?q=glacier%20decade&explain=true', { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data[0].id, made.id);
    assert.match(res.body.data[0].explain.note, /did not answer/);
    assert.equal(res.body.data[0].explain.method, 'text+graph');
    const ready = await api.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.json().checks.embeddings, 'unavailable');
    // Slower than the timeout is the same as down.
    provider.setDefault('embeddings', behave.delay(1500));
    const slow = await api.request('GET', '/v1/snapshots/search?q=glacier%20melting&explain=true', { key });
    assert.equal(slow.status, 200);
    assert.match(slow.body.data[0].explain.note, /did not answer/);
    provider.setDefault('embeddings', behave.ok());
    const again = await api.request('GET', '/v1/snapshots/search?q=glacier%20melting%20fast&explain=true', { key });
    assert.equal(again.body.data[0].explain.method, 'text+semantic+graph');
  });
});

describe('embedding work survives a restart', () => {
  it('snapshots written while the provider was down get vectors from the next process', async () => {
    const provider = await startFakeOpenAI({ dimension: 32 });
    provider.setDefault('embeddings', behave.status(503, { retryAfter: 1 }));
    const first = await startTestApi({ embeddings: settings(provider), backgroundWork: false });
    try {
      const key = await first.newKey();
      for (const name of ['Comet tails', 'Comet orbits', 'Comet dust']) {
        const res = await first.request('POST', '/v1/snapshots', {
          key,
          body: { name, core: `${name} in the solar wind` },
        });
        assert.equal(res.status, 201, 'a write never waits for the provider');
      }
      const queued = await first.request('GET', `/v1/brains/${key.brainId}`, { key });
      assert.equal(queued.body.data.pending_work.embeddings, 3);
      await first.app.close();
      provider.setDefault('embeddings', behave.ok());
      const second = await connectTestApi(first.databasePath, { embeddings: settings(provider) });
      try {
        await vectorsSettled(second.request, key, key.brainId);
        const res = await second.request('GET', '/v1/snapshots/search?q=comet&explain=true', { key });
        assert.equal(res.body.data.length, 3);
        for (const hit of res.body.data) assert.equal(typeof hit.explain.semantic, 'number');
      } finally {
        await second.close();
      }
    } finally {
      await first.close().catch(() => undefined);
      await provider.close();
    }
  });
});
