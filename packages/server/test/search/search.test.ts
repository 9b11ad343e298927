import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/**
 * GET /v1/snapshots/search through HTTP: its parameters, its body, and the ordering properties
 * any correct graph-influenced ranking must have (design §8.3). Each property is checked against
 * a twin snapshot that differs only in the one thing tested.
 */
describe('GET /v1/snapshots/search', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const create = async (body: Record<string, unknown>, k: TestKey = key) => {
    const res = await api.request('POST', '/v1/snapshots', { key: k, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string; brain_id: string; name: string };
  };
  const link = async (source: string, target: string, edge_type: string, strength = 0.9, k: TestKey = key) => {
    const res = await api.request('POST', '/v1/edges', {
      key: k,
      body: { source_id: source, target_id: target, edge_type, strength },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string };
  };
  const search = (query: string, k: TestKey = key) => api.request('GET', `/v1/snapshots/search?${query}`, { key: k });
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

  describe('parameters', () => {
    for (const [query, field] of [
      ['', 'q'],
      ['q=%20%20', 'q'],
      [`q=${'a'.repeat(501)}`, 'q'],
      ['q=x&limit=0', 'limit'],
      ['q=x&limit=101', 'limit'],
      ['q=x&limit=1.5', 'limit'],
      ['q=x&limit=abc', 'limit'],
      ['q=x&offset=-1', 'offset'],
      // Search reaches its first 10,000 results (design §8): a deeper offset ranked a whole brain.
      ['q=x&offset=9901', 'offset'],
      ['q=x&type=Opinion', 'type'],
      ['q=x&graph=maybe', 'graph'],
      ['q=x&explain=2', 'explain'],
    ] as const) {
      it(`400 naming ${field} for ?${query.slice(0, 40)}`, async () => {
        const res = await search(query);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'BAD_REQUEST');
        assert.equal(res.body.error.details.field, field);
        assert.match(res.body.request_id, /^req_/);
      });
    }

    it('500 characters after trimming is the longest query', async () => {
      const res = await search(`q=${encodeURIComponent(` ${'b'.repeat(500)} `)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.query, 'b'.repeat(500));
    });

    it('401 without a key, 404 for a brain of another account, 200 empty for stop words', async () => {
      assert.equal((await api.request('GET', '/v1/snapshots/search?q=x')).status, 401);
      const other = await api.newKey();
      const res = await search(`q=x&brain_id=${other.brainId}`);
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'NOT_FOUND');
      const stop = await search('q=the%20and%20of');
      assert.equal(stop.status, 200);
      assert.deepEqual(stop.body, { data: [], count: 0, query: 'the and of' });
    });
  });

  it('answers the full snapshot with score, similarity, contradicted_by; count, query, Cache-Control', async () => {
    const made = await create({ name: 'Quasar habits', core: 'A quasar of tiny habits', tags: ['growth'] });
    const res = await search('q=%20quasar%20');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers['cache-control'], 'private, max-age=30');
    assert.deepEqual(Object.keys(res.body).sort(), ['count', 'data', 'query']);
    assert.equal(res.body.query, 'quasar');
    assert.equal(res.body.count, 1);
    const [hit] = res.body.data;
    const stored = (await api.request('GET', `/v1/snapshots/${made.id}`, { key })).body.data;
    const { score, similarity, contradicted_by, ...snapshot } = hit;
    assert.deepEqual(snapshot, stored);
    assert.equal(typeof score, 'number');
    assert.ok(score > 0 && score <= 1);
    assert.match(similarity, /^[01]\.\d{4}$/);
    assert.equal(similarity, score.toFixed(4));
    assert.deepEqual(contradicted_by, []);
    const mirror = await api.request('GET', '/api/v1/snapshots/search?q=quasar', { key });
    assert.deepEqual(mirror.body, res.body);
  });

  it('a rare word in the name beats its absence', async () => {
    const plain = await create({ name: 'Saving money', core: 'Compounding interest rewards patience with money' });
    const named = await create({ name: 'Zebrafish saving', core: 'Compounding interest rewards patience with money' });
    const res = await search('q=zebrafish%20compounding');
    assert.deepEqual(ids(res).slice(0, 2), [named.id, plain.id]);
    assert.ok(res.body.data[0].score > res.body.data[1].score);
  });

  it('a prefix of fewer than 3 letters, or past the 8th, reads as the word it is', async () => {
    const own = await api.newKey();
    const word = await create({ name: 'Ox notes', core: 'An ox pulls the plough' }, own);
    const longer = await create({ name: 'Oxbow notes', core: 'An oxbow lake forms' }, own);
    assert.deepEqual(ids(await search('q=ox*', own)), [word.id], 'ox* is the word ox');
    assert.deepEqual(ids(await search('q=oxb*', own)), [longer.id], 'three letters: a prefix');
    const eight = ['aaa*', 'bbb*', 'ccc*', 'ddd*', 'eee*', 'fff*', 'ggg*', 'hhh*'].join(' ');
    assert.deepEqual(ids(await search(`q=${encodeURIComponent(`${eight} oxb*`)}`, own)), [], 'the 9th: the word oxb');
    assert.deepEqual(ids(await search(`q=${encodeURIComponent(`${eight} oxbow*`)}`, own)), [longer.id]);
  });

  it('stems words, finds prefixes and ranks a phrase above its scattered words', async () => {
    const runs = await create({ name: 'Morning runs', core: 'She runs every morning before work' });
    assert.ok(ids(await search('q=running')).includes(runs.id));
    const learning = await create({ name: 'Learnability', core: 'Learnability of xylophone playing' });
    assert.ok(ids(await search('q=learnab*')).includes(learning.id));
    // A prefix longer than the stem of the words it begins ("optimization" is indexed as
    // "optim") still finds them, and widens no further than stemming does: not to other words
    // that merely start like the stem ("optics", "cachet", "genes", "runts").
    const begun = await create({ name: 'Mole notes', core: 'Quokka optimization; caching generalizations' });
    const shorter = await create({ name: 'Mole notes', core: 'Quokka optics; cachet, genes and runts' });
    for (const prefix of ['optimiz*', 'cachi*', 'generaliz*', 'runn*']) {
      const found = ids(await search(`q=${encodeURIComponent(prefix)}`));
      const expected = prefix === 'runn*' ? runs.id : begun.id;
      assert.ok(found.includes(expected), `${prefix} finds the words it begins`);
      assert.ok(!found.includes(shorter.id), `${prefix} stays within the words it begins`);
    }
    const scattered = await create({ name: 'Kiwi notes', core: 'vector of words about the kiwi and the parrot cage' });
    const phrase = await create({ name: 'Kiwi notes', core: 'the parrot cage vector of words about a kiwi' });
    const res = await search(`q=${encodeURIComponent('"parrot cage vector"')}`);
    assert.equal(ids(res)[0], phrase.id);
    assert.ok(!ids(res).includes(scattered.id) || ids(res).indexOf(scattered.id) > 0);
  });

  describe('the graph', () => {
    it('raises the supported target above an otherwise identical unsupported one', async () => {
      const backed = await create({ name: 'Walrus claim', core: 'Walrus sleep cycles are irregular' });
      const twin = await create({ name: 'Walrus claim', core: 'Walrus sleep cycles are irregular' });
      const evidence = await create({ name: 'Walrus study', core: 'Observed walrus sleep in the wild' });
      await link(evidence.id, backed.id, 'supports', 0.9);
      const on = await search('q=walrus%20sleep&explain=true');
      const order = ids(on);
      assert.ok(order.indexOf(backed.id) < order.indexOf(twin.id), JSON.stringify(order));
      const explained = on.body.data.find((r: { id: string }) => r.id === backed.id).explain;
      assert.equal(explained.method, 'text+graph');
      assert.ok(explained.graph > 0);
      assert.equal(explained.edges[0].snapshot_id, evidence.id);
      assert.equal(explained.edges[0].edge_type, 'supports');
      assert.equal(explained.semantic, null);
      assert.equal(explained.note, 'no embedding provider is configured: ranked by text and graph only');
      const off = await search('q=walrus%20sleep&graph=false&explain=true');
      const offBacked = off.body.data.find((r: { id: string }) => r.id === backed.id);
      const offTwin = off.body.data.find((r: { id: string }) => r.id === twin.id);
      assert.equal(offBacked.score, offTwin.score, 'without the graph the twins tie');
      assert.equal(offBacked.explain.graph, null);
      assert.equal(offBacked.explain.method, 'text');
      assert.equal(offBacked.explain.note, 'no embedding provider is configured: ranked by text only');
    });

    it('ranks the newer end of evolved_from above the older, and brings the newer in', async () => {
      const older = await create({ name: 'Narwhal pricing', core: 'Narwhal pricing should be flat' });
      const newer = await create({ name: 'Narwhal pricing', core: 'Narwhal pricing should be flat' });
      await link(newer.id, older.id, 'evolved_from', 0.8);
      const order = ids(await search('q=narwhal%20pricing'));
      assert.ok(order.indexOf(newer.id) < order.indexOf(older.id), JSON.stringify(order));
      const oldOnly = await create({ name: 'Okapi rule v1', core: 'Okapi feeding twice a day' });
      const rewritten = await create({ name: 'Feeding rule v2', core: 'Feed three times daily' });
      await link(rewritten.id, oldOnly.id, 'evolved_from', 0.3);
      // Another match of the word, weaker than the old version and stronger than what a weak
      // edge alone gives the new one: the new version takes the old one's place above it,
      // rather than the old one sinking below it.
      const weaker = await create({ name: 'Okapi sighting', core: 'Tracks by the river at dawn, maybe' });
      const res = await search('q=okapi&explain=true');
      assert.deepEqual(ids(res), [rewritten.id, oldOnly.id, weaker.id]);
      assert.equal(res.body.count, 3);
      const [top, second, third] = res.body.data;
      assert.ok(
        top.score > second.score && second.score > third.score,
        JSON.stringify(res.body.data.map((r: { score: number }) => r.score)),
      );
      assert.ok(top.score <= 1);
      assert.match(top.explain.note, new RegExp(`in the place of ${oldOnly.id}`));
      assert.match(second.explain.note, new RegExp(`just below ${rewritten.id}`));
      const textOnly = await search('q=okapi&graph=false');
      assert.deepEqual(ids(textOnly), [oldOnly.id, weaker.id], 'without the graph, the words alone');
    });

    it('a cycle of evolved_from edges (each the newer of the next) still answers, every member once', async () => {
      const own = await api.newKey();
      const members = [];
      for (const n of [1, 2, 3, 4]) members.push(await create({ name: `Wombat rule ${n}`, core: 'Wombat cycle' }, own));
      for (const [i, newer] of members.entries()) {
        await link(newer.id, members[(i + 1) % 4]!.id, 'evolved_from', 0.5, own);
      }
      for (const query of ['q=wombat', 'q=wombat&offset=9900&limit=100']) {
        const res = await search(query, own);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.count, 4);
      }
      assert.deepEqual(ids(await search('q=wombat', own)).sort(), members.map((m) => m.id).sort());
    });

    it('never raises a contradicted snapshot, and surfaces the contradiction', async () => {
      const claim = await create({ name: 'Ibex diet', core: 'Ibex eat only grass' });
      const twin = await create({ name: 'Ibex diet', core: 'Ibex eat only grass' });
      const critic = await create({ name: 'Ibex critique', core: 'Observed ibex eating salt and lichen' });
      const edge = await link(critic.id, claim.id, 'contradicts', 0.7);
      const res = await search('q=ibex%20grass&explain=true');
      const byId = new Map(res.body.data.map((r: { id: string }) => [r.id, r]));
      const claimed = byId.get(claim.id) as { score: number; contradicted_by: unknown[]; explain: { graph: number } };
      const twinned = byId.get(twin.id) as { score: number; contradicted_by: unknown[] };
      assert.equal(claimed.score, twinned.score);
      assert.equal(claimed.explain.graph, 0);
      assert.deepEqual(claimed.contradicted_by, [
        { snapshot_id: critic.id, name: 'Ibex critique', edge_id: edge.id, strength: 0.7 },
      ]);
      assert.deepEqual(twinned.contradicted_by, []);
      const critiqued = byId.get(critic.id) as { contradicted_by: { snapshot_id: string }[] };
      assert.equal(critiqued.contradicted_by[0]?.snapshot_id, claim.id, 'either direction');
    });

    it('pushes harder a neighbour that holds the query words its seed lacks (the bridge)', async () => {
      const brain = (await api.request('POST', '/v1/brains', { key, body: { name: 'bridge' } })).body.data;
      const inBrain = (name: string, core: string) => create({ brain_id: brain.id, name, core });
      const seed = await inBrain('Quokka', 'The quokka lives on Rottnest island');
      // Holds "tally", which the seed lacks: together they hold the whole question.
      const bridge = await inBrain('Rottnest survey', 'Rangers keep a yearly tally of the animals');
      // Holds only what the seed holds already, and nothing at all: the edge alone speaks for them.
      const echo = await inBrain('Rottnest tracks', 'Rangers follow quokka tracks');
      const silent = await inBrain('Rottnest ferry', 'Boats leave from Fremantle');
      for (const other of [bridge, echo, silent]) await link(seed.id, other.id, 'related_to', 0.9);
      const on = await search(`q=quokka%20tally&brain_id=${brain.id}&explain=true`);
      const pushFromSeed = (id: string) => {
        const result = on.body.data.find((r: { id: string }) => r.id === id);
        assert.ok(result, `${id} is a result`);
        const edge = result.explain.edges.find((e: { snapshot_id: string }) => e.snapshot_id === seed.id);
        return edge.contribution as number;
      };
      assert.equal(ids(on)[0], seed.id);
      assert.equal(pushFromSeed(echo.id), pushFromSeed(silent.id), 'no query word beyond the seed’s: no gain');
      // quokka and tally are each in one or two snapshots: the pair holds about twice the seed's share.
      assert.ok(pushFromSeed(bridge.id) > 1.5 * pushFromSeed(echo.id), JSON.stringify(on.body.data));
    });

    it('brings in a snapshot that shares no word with the query through a strong edge', async () => {
      const match = await create({ name: 'Pangolin scales', core: 'Pangolin scales are keratin' });
      const linked = await create({ name: 'Keratin biology', core: 'Hair and nails are made of the same protein' });
      await link(match.id, linked.id, 'elaborates', 0.9);
      const on = await search('q=pangolin&explain=true');
      assert.deepEqual(ids(on), [match.id, linked.id]);
      assert.equal(on.body.count, 2);
      const brought = on.body.data[1];
      assert.equal(brought.explain.text, 0);
      assert.ok(brought.explain.graph > 0 && brought.score > 0);
      const off = await search('q=pangolin&graph=false');
      assert.deepEqual(ids(off), [match.id]);
      assert.equal(off.body.count, 1);
    });
  });

  it('sees creates, updates and deletes as soon as they are acknowledged', async () => {
    const made = await create({ name: 'Capybara', core: 'Capybara are calm' });
    assert.deepEqual(ids(await search('q=capybara')), [made.id]);
    const put = await api.request('PUT', `/v1/snapshots/${made.id}`, {
      key,
      body: { name: 'Wombat', core: 'Wombats dig' },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(ids(await search('q=capybara')), []);
    assert.deepEqual(ids(await search('q=wombat')), [made.id]);
    assert.equal((await api.request('DELETE', `/v1/snapshots/${made.id}`, { key })).status, 200);
    assert.deepEqual(await search('q=wombat').then((r) => r.body), { data: [], count: 0, query: 'wombat' });
  });

  it('filters by type, tag and brain, and pages consistently', async () => {
    const brain = (await api.request('POST', '/v1/brains', { key, body: { name: 'filters' } })).body.data;
    const made = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        await create({
          brain_id: brain.id,
          name: `Heron ${i}`,
          core: `heron ${'fishing '.repeat(i + 1)}`,
          type: i % 2 === 0 ? 'Rule' : 'Model',
          tags: i < 3 ? ['birds'] : ['other'],
        }),
      );
    }
    const all = await search(`q=heron%20fishing&brain_id=${brain.id}&limit=100`);
    assert.equal(all.body.count, 7);
    const pages = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const page = await search(`q=heron%20fishing&brain_id=${brain.id}&limit=3&offset=${offset}`);
      assert.equal(page.body.count, 7);
      pages.push(...ids(page));
    }
    assert.deepEqual(pages, ids(all));
    const rules = await search(`q=heron&brain_id=${brain.id}&type=Rule&limit=100`);
    assert.deepEqual(new Set(ids(rules)), new Set(made.filter((_, i) => i % 2 === 0).map((m) => m.id)));
    assert.equal(rules.body.count, 4);
    const birds = await search(`q=heron&brain_id=${brain.id}&tag=birds&limit=100`);
    assert.deepEqual(new Set(ids(birds)), new Set(made.slice(0, 3).map((m) => m.id)));
    assert.equal(birds.body.count, 3);
    // Stored tags are trimmed, and so is the filter; a blank one is a 400, as a blank q is.
    const padded = await search(`q=heron&brain_id=${brain.id}&tag=%20birds%20&limit=100`);
    assert.deepEqual(ids(padded), ids(birds));
    const blank = await search(`q=heron&brain_id=${brain.id}&tag=%20%20`);
    assert.equal(blank.status, 400);
    assert.equal(blank.body.error.details.field, 'tag');
    assert.deepEqual(ids(await search('q=heron')), [], "the key's default brain holds none of them");
    // Tags a tokenizer of our own would split unlike the index (a decomposed accent), or that
    // hold no letters or digits at all, are found as stored.
    for (const tag of ['nai\u0308ve', '++']) {
      const tagged = await create({ name: 'Heron notes', core: 'The heron waits', tags: [tag], brain_id: brain.id });
      const found = await search(`q=heron&brain_id=${brain.id}&tag=${encodeURIComponent(tag)}`);
      assert.deepEqual(ids(found), [tagged.id], tag);
    }
  });

  /**
   * 100 matches, more than a search ranks, in `brainId`: the count, the pages, and the weakest
   * match brought onto the first page by the graph and counted once.
   */
  const deepMatches = async (caller: { api: TestApi; key: TestKey }, brainId: string) => {
    const call = (method: string, path: string, body?: Record<string, unknown>) =>
      caller.api.request(method, path, { key: caller.key, ...(body ? { body } : {}) });
    for (let i = 0; i < 100; i++) {
      const res = await call('POST', '/v1/snapshots', {
        brain_id: brainId,
        name: `Lemur ${i}`,
        core: `lemur ${'tree '.repeat(i)}`,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const lemurs = (query: string) => call('GET', `/v1/snapshots/search?q=lemur&brain_id=${brainId}&${query}`);
    const all = await lemurs('graph=false&limit=100');
    assert.equal(all.body.count, 100);
    const pages = [];
    for (let offset = 0; offset < 100; offset += 10) {
      const page = await lemurs(`graph=false&limit=10&offset=${offset}`);
      assert.equal(page.body.count, 100);
      pages.push(...ids(page));
    }
    assert.deepEqual(pages, ids(all));
    // The weakest match, linked strongly from the five best: it enters the first page through
    // the graph, and is counted once, as the text match it is.
    const deepest = ids(all)[99] as string;
    for (const seed of ids(all).slice(0, 5)) {
      const edge = { source_id: seed, target_id: deepest, edge_type: 'elaborates', strength: 0.9 };
      assert.equal((await call('POST', '/v1/edges', edge)).status, 201);
    }
    const on = await lemurs('limit=5');
    assert.ok(ids(on).includes(deepest), JSON.stringify(ids(on)));
    assert.equal(on.body.count, 100);
  };

  it('counts and pages past the matches it ranks, ties included, and knows a deep match the graph reaches', async () => {
    const brain = (await api.request('POST', '/v1/brains', { key, body: { name: 'deep matches' } })).body.data;
    await deepMatches({ api, key }, brain.id);

    const twins = [];
    for (let i = 0; i < 40; i++) twins.push(await create({ brain_id: brain.id, name: 'Quokka', core: 'quokka smile' }));
    const tied = await search(`q=quokka&brain_id=${brain.id}&graph=false&limit=100`);
    assert.equal(tied.body.count, 40);
    const tiedPages = [];
    for (let offset = 0; offset < 40; offset += 5) {
      tiedPages.push(...ids(await search(`q=quokka&brain_id=${brain.id}&graph=false&limit=5&offset=${offset}`)));
    }
    assert.deepEqual(tiedPages, ids(tied), 'ties broken the same way on every page (newest first)');
    assert.deepEqual(ids(tied), twins.map((t) => t.id).reverse());
  });

  it('counts deep matches the same way when the database holds one brain (the whole index is its own)', async () => {
    const alone = await startTestApi();
    try {
      const only = await alone.newKey();
      const first = await alone.request('POST', '/v1/snapshots', {
        key: only,
        body: { name: 'First', core: 'nothing' },
      });
      await deepMatches({ api: alone, key: only }, first.body.data.brain_id);
    } finally {
      await alone.close();
    }
  });

  it("never shows another account's snapshots", async () => {
    const other = await api.newKey();
    await create({ name: 'Secret axolotl', core: 'axolotl plans' }, other);
    const mine = await create({ name: 'My axolotl', core: 'axolotl notes' });
    const res = await search('q=axolotl%20secret');
    assert.deepEqual(ids(res), [mine.id]);
    assert.equal(res.body.count, 1);
  });
});
