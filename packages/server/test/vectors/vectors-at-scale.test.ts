import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { embeddingSettings as settings, vectorsSettled } from '../helpers/embeddings.js';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { ConfigError, loadConfig, type VectorSettings } from '../../src/config.js';

/**
 * Vectors at scale (design §20) on the running app, with a fake OpenAI embeddings server whose
 * vectors are a hashed bag of words (texts sharing words are near): the threshold between exact
 * and approximate (HNSW) search, writes of another process, brains kept apart, and the budget.
 */
const vectors = (overrides: Partial<VectorSettings>): VectorSettings => ({
  index: 'auto',
  cacheMb: 512,
  exactMax: 20_000,
  ...overrides,
});

const TEXTS = [
  ['Tidal energy', 'Tidal turbines turn the sea into power'],
  ['Orchard pruning', 'Apple trees are pruned in late winter for a better harvest'],
  ['Sourdough', 'A starter of flour and water leavens the bread slowly'],
  ['Harbour pilots', 'Pilots guide large ships through the narrow harbour channel'],
  ['Compound interest', 'Small savings grow with interest compounding every year'],
  ['Beekeeping', 'Bees need water and flowers near the hive in summer'],
  ['Solar panels', 'Panels turn sunlight into power on the roof'],
  ['Night sky', 'Stars and planets are easiest to see far from city lights'],
  ['Marathon training', 'Long slow runs build the endurance a marathon needs'],
  ['Wind farms', 'Turbines on the hills turn wind into power for the town'],
  ['River ferries', 'A ferry carries cars and people across the wide river'],
  ['Tea ceremony', 'Green tea is whisked and served with quiet attention'],
];
const QUERIES = ['turbines power', 'ships harbour', 'bread flour', 'power from the sea', 'bees flowers water'];

type Request = TestApi['request'];

async function create(request: Request, key: TestKey, name: string, core: string) {
  const res = await request('POST', '/v1/snapshots', { key, body: { name, core } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data.id as string;
}

/**
 * A search's results (graph off: only text and meaning rank) as (id, score, similarity by
 * meaning), and the index explain names.
 */
async function search(request: Request, key: TestKey, q: string) {
  const res = await request(
    'GET',
    `/v1/snapshots/search?q=${encodeURIComponent(q)}&explain=true&graph=false&limit=20`,
    {
      key,
    },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const data = res.body.data as {
    id: string;
    score: number;
    explain: { semantic: number | null; vector_index: string };
  }[];
  return {
    results: data.map((r) => ({ id: r.id, score: r.score, semantic: r.explain.semantic })),
    indexes: new Set(data.map((r) => r.explain.vector_index)),
  };
}

/** Polls `check` until it holds (another process's write is seen within a second or two). */
async function eventually(check: () => Promise<boolean>, what: string, ms = 8000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`never: ${what}`);
}

describe('vectors at scale', () => {
  let provider: FakeOpenAI;
  before(async () => {
    provider = await startFakeOpenAI({ dimension: 64 });
  });
  after(async () => provider.close());

  it('exact, HNSW and auto past the threshold answer a query alike, and explain says which answered', async (t) => {
    const api = await startTestApi({ embeddings: settings(provider, 10_000), vectors: vectors({ index: 'exact' }) });
    t.after(() => api.close());
    const key = await api.newKey();
    for (const [name, core] of TEXTS) await create(api.request, key, name as string, core as string);
    await vectorsSettled(api.request, key, key.brainId);
    const hnsw = await connectTestApi(api.databasePath, {
      embeddings: settings(provider, 10_000),
      backgroundWork: false,
      vectors: vectors({ index: 'hnsw' }),
    });
    t.after(() => hnsw.close());
    // Auto with a threshold the brain is at: exact now, HNSW once one more vector is written.
    const auto = await connectTestApi(api.databasePath, {
      embeddings: settings(provider, 10_000),
      backgroundWork: false,
      vectors: vectors({ exactMax: TEXTS.length }),
    });
    t.after(() => auto.close());

    const before = new Map<string, Awaited<ReturnType<typeof search>>['results']>();
    for (const q of QUERIES) {
      const exact = await search(api.request, key, q);
      const approximate = await search(hnsw.request, key, q);
      const switching = await search(auto.request, key, q);
      assert.ok(
        exact.results.some((r) => r.semantic !== null && r.semantic > 0),
        q,
      );
      assert.deepEqual([...exact.indexes], ['exact']);
      assert.deepEqual([...approximate.indexes], ['hnsw']);
      assert.deepEqual([...switching.indexes], ['exact']);
      assert.deepEqual(approximate.results, exact.results, q);
      assert.deepEqual(switching.results, exact.results, q);
      before.set(q, exact.results);
    }

    const added = await create(api.request, key, 'Knitting', 'Wool socks knitted by hand on four needles');
    await vectorsSettled(api.request, key, key.brainId);
    await eventually(
      async () => (await search(auto.request, key, QUERIES[0] as string)).indexes.has('hnsw'),
      'auto switches to HNSW',
    );
    for (const q of QUERIES) {
      const now = await search(auto.request, key, q);
      assert.deepEqual([...now.indexes], ['hnsw']);
      // The new snapshot changes the text part's statistics (IDF), not the meaning part.
      const meaning = (results: { id: string; semantic: number | null }[] | undefined) =>
        results?.filter((r) => r.id !== added).map((r) => ({ id: r.id, semantic: r.semantic }));
      assert.deepEqual(meaning(now.results), meaning(before.get(q)), `${q}: the same results across the switch`);
    }
  });

  it('sees writes, updates and deletes of another process, snapshots and memories', async (t) => {
    const api = await startTestApi({ embeddings: settings(provider, 10_000), vectors: vectors({ index: 'hnsw' }) });
    t.after(() => api.close());
    const other = await connectTestApi(api.databasePath, {
      embeddings: settings(provider, 10_000),
      vectors: vectors({}),
    });
    t.after(() => other.close());
    const key = await api.newKey();
    const ids: string[] = [];
    for (const [name, core] of TEXTS) ids.push(await create(api.request, key, name as string, core as string));
    await vectorsSettled(api.request, key, key.brainId);
    const query = 'lighthouse keeper storms';
    const similarityOf = async (id: string) => {
      const found = (await search(api.request, key, query)).results.find((r) => r.id === id);
      return found?.semantic ?? null;
    };
    assert.deepEqual([...(await search(api.request, key, QUERIES[0] as string)).indexes], ['hnsw']);

    // A new snapshot written by the other process, sharing no stored text with the query's words but its own.
    const added = await create(other.request, key, 'Lighthouse', 'The lighthouse keeper logs storms at night');
    await vectorsSettled(other.request, key, key.brainId);
    await eventually(async () => ((await similarityOf(added)) ?? 0) > 0.5, 'the new snapshot is found by meaning');

    // An update moves a snapshot's vector: the index placed the old one.
    const moved = ids[1] as string;
    const was = (await similarityOf(moved)) ?? 0;
    const put = await other.request('PUT', `/v1/snapshots/${moved}`, {
      key,
      body: { name: 'Storm watch', core: 'A keeper watches storms from the lighthouse' },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await vectorsSettled(other.request, key, key.brainId);
    // Its new text shares three words with the query (cosine 0.38 with the fake model); its old one none.
    await eventually(async () => ((await similarityOf(moved)) ?? 0) > Math.max(0.3, was), 'the update is seen');

    const gone = await other.request('DELETE', `/v1/snapshots/${added}`, { key });
    assert.equal(gone.status, 200);
    await eventually(
      async () => !(await search(api.request, key, query)).results.some((r) => r.id === added),
      'the deleted snapshot is gone',
    );

    // Memories use the same index.
    const memory = await other.request('POST', '/v1/memories', {
      key,
      body: { content: 'The lighthouse keeper logs storms every night' },
    });
    assert.equal(memory.status, 201, JSON.stringify(memory.body));
    await vectorsSettled(other.request, key, key.brainId);
    await eventually(async () => {
      const res = await api.request('POST', '/v1/memories/search', { key, body: { query: 'keeper of storms' } });
      const hit = (res.body.data as { id: string; similarity: number | null }[]).find(
        (m) => m.id === memory.body.data.id,
      );
      return (hit?.similarity ?? 0) > 0.3;
    }, 'the memory is found by meaning');
  });

  it("never shows one brain's vectors in another brain's search, suggestions or memories", async (t) => {
    const api = await startTestApi({ embeddings: settings(provider, 10_000), vectors: vectors({ index: 'hnsw' }) });
    t.after(() => api.close());
    const mine = await api.newKey();
    const theirs = await api.newKey();
    const theirIds = new Set<string>();
    const myIds: string[] = [];
    for (const [name, core] of TEXTS) {
      myIds.push(await create(api.request, mine, name as string, core as string));
      theirIds.add(await create(api.request, theirs, name as string, `${core as string} again`));
    }
    for (const key of [mine, theirs]) {
      const res = await api.request('POST', '/v1/memories', {
        key,
        body: { content: 'Turbines turn the wind into power' },
      });
      if (key === theirs) theirIds.add(res.body.data.id);
      await vectorsSettled(api.request, key, key.brainId);
    }
    for (const q of QUERIES) {
      const found = await search(api.request, mine, q);
      assert.ok(found.results.length > 0, q);
      assert.deepEqual([...found.indexes], ['hnsw']);
      assert.ok(!found.results.some((r) => theirIds.has(r.id)), q);
      const memories = await api.request('POST', '/v1/memories/search', { key: mine, body: { query: q } });
      assert.ok(!(memories.body.data as { id: string }[]).some((m) => theirIds.has(m.id)), q);
    }
    for (const id of myIds) {
      const suggested = await api.request('GET', `/v1/snapshots/${id}/suggestions`, { key: mine });
      assert.equal(suggested.status, 200);
      for (const s of suggested.body.data as { source_id: string; target_id: string }[]) {
        assert.ok(!theirIds.has(s.source_id) && !theirIds.has(s.target_id), JSON.stringify(s));
      }
    }
  });
});

describe('vectors under the memory budget', () => {
  let provider: FakeOpenAI;
  let api: TestApi;
  const keys: TestKey[] = [];
  before(async () => {
    // 3,072 numbers a vector: 30 snapshots a brain take about 0.45 MiB with their index, so two
    // brains fit VECTOR_CACHE_MB=1 and a third pushes the least recently searched out.
    provider = await startFakeOpenAI({ dimension: 3072 });
    api = await startTestApi({
      embeddings: settings(provider, 10_000),
      metrics: true,
      vectors: vectors({ index: 'hnsw', cacheMb: 1 }),
    });
    for (let b = 0; b < 3; b++) {
      const key = await api.newKey();
      keys.push(key);
      for (let i = 0; i < 30; i++) {
        const [name, core] = TEXTS[i % TEXTS.length] as [string, string];
        await create(api.request, key, `${name} ${b} ${i}`, `${core} (brain ${b}, number ${i})`);
      }
      await vectorsSettled(api.request, key, key.brainId);
    }
  });
  after(async () => {
    await api.close();
    await provider.close();
  });

  const metric = async (name: string) => {
    const text = (await api.request('GET', '/metrics')).raw.body;
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    assert.ok(line, `${name} in /metrics`);
    return Number(line.split(' ')[1]);
  };

  it('drops the least recently searched brain, and reloads it (building its index again) when searched', async () => {
    const first = await search(api.request, keys[0] as TestKey, 'turbines power');
    assert.ok(first.results.length > 0);
    assert.deepEqual([...first.indexes], ['hnsw']);
    await search(api.request, keys[1] as TestKey, 'turbines power');
    assert.equal(await metric('snapgraph_vector_brains_held'), 2);
    const builds = await metric('snapgraph_vector_index_builds');
    assert.equal(builds, 2);
    // The third brain does not fit beside the other two: the first one searched goes.
    await search(api.request, keys[2] as TestKey, 'turbines power');
    assert.equal(await metric('snapgraph_vector_brains_held'), 2);
    assert.ok((await metric('snapgraph_vector_memory_bytes')) <= 1024 * 1024);
    assert.equal(await metric('snapgraph_vector_index_builds'), 3);
    // The second is still held: no build. The first was dropped: read and built again.
    await search(api.request, keys[1] as TestKey, 'turbines power');
    assert.equal(await metric('snapgraph_vector_index_builds'), 3);
    const again = await search(api.request, keys[0] as TestKey, 'turbines power');
    assert.equal(await metric('snapgraph_vector_index_builds'), 4);
    assert.deepEqual(again, first);
    assert.ok((await metric('snapgraph_vector_memory_bytes')) <= 1024 * 1024);
  });
});

describe('vector settings', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      assert.ok(err instanceof ConfigError, String(err));
      return err.message;
    }
    return assert.fail(`accepted ${JSON.stringify(env)}`);
  };

  it('defaults to auto, 512 MB and 20,000, and reads each setting', () => {
    assert.deepEqual(loadConfig({}).vectors, { index: 'auto', cacheMb: 512, exactMax: 20_000 });
    assert.deepEqual(loadConfig({ VECTOR_INDEX: 'hnsw', VECTOR_CACHE_MB: '256', VECTOR_EXACT_MAX: '0' }).vectors, {
      index: 'hnsw',
      cacheMb: 256,
      exactMax: 0,
    });
    assert.equal(loadConfig({ VECTOR_INDEX: 'exact' }).vectors?.index, 'exact');
  });

  it('refuses an unknown index, a budget below 1 MB, and a negative or fractional threshold', () => {
    assert.match(refusal({ VECTOR_INDEX: 'ivf' }), /VECTOR_INDEX must be one of auto, exact, hnsw/);
    assert.match(refusal({ VECTOR_CACHE_MB: '0' }), /VECTOR_CACHE_MB must be >= 1/);
    assert.match(refusal({ VECTOR_CACHE_MB: 'lots' }), /VECTOR_CACHE_MB must be a whole number/);
    assert.match(refusal({ VECTOR_EXACT_MAX: '-1' }), /VECTOR_EXACT_MAX must be a whole number/);
    assert.match(refusal({ VECTOR_EXACT_MAX: '2.5' }), /VECTOR_EXACT_MAX must be a whole number/);
  });
});
