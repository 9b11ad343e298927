import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectTestApi, startTestApi, type ApiResponse, type TestApi, type TestKey } from '../helpers/harness.js';
import { linkingSettled } from '../helpers/linking.js';

type Request = (method: string, url: string, options?: { key?: TestKey; body?: unknown }) => Promise<ApiResponse>;

const edgesOf = async (request: Request, key: TestKey, brainId: string) => {
  const res = await request('GET', `/v1/edges?brain_id=${brainId}&limit=200`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as {
    id: string;
    source_id: string;
    target_id: string;
    edge_type: string;
    origin: string;
    label: string;
    strength: number;
  }[];
};

const FOX = {
  name: 'Arctic fox winter coat',
  core: 'The arctic fox grows a thick white winter coat for camouflage in snow',
};
const FOX_TOO = { name: 'Fox coat colour', core: 'Arctic fox winter coat turns white in snow for camouflage' };
const UNRELATED = { name: 'Sourdough starter', core: 'Feed the sourdough starter flour and water daily' };

describe('automatic edges', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const newBrain = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/brains', { key, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string; auto_link: boolean };
  };
  const create = async (brainId: string, body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/snapshots', { key, body: { ...body, brain_id: brainId } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string };
  };

  describe('PUT /v1/brains/:id', () => {
    it('turns auto_link on and renames; the brain answers with it', async () => {
      const brain = await newBrain({ name: 'plain' });
      assert.equal(brain.auto_link, false);
      const res = await api.request('PUT', `/v1/brains/${brain.id}`, {
        key,
        body: { auto_link: true, name: ' Linked ' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.auto_link, true);
      assert.equal(res.body.data.name, 'Linked');
      assert.ok(res.body.data.updated_at > res.body.data.created_at || res.body.data.updated_at !== brain.id);
      const read = await api.request('GET', `/v1/brains/${brain.id}`, { key });
      assert.equal(read.body.data.auto_link, true);
      const back = await api.request('PUT', `/v1/brains/${brain.id}`, { key, body: read.body.data });
      assert.equal(back.status, 200, 'GET, then PUT back as read: read-only fields unchanged are accepted');
      assert.equal(back.body.data.name, 'Linked');
      assert.ok(back.body.data.updated_at > read.body.data.updated_at);
    });

    it('400 for an empty body, a wrong type, an unknown or changed read-only field; 404 across accounts', async () => {
      const brain = await newBrain({ name: 'strict' });
      const put = (body: unknown, k: TestKey = key) => api.request('PUT', `/v1/brains/${brain.id}`, { key: k, body });
      for (const [body, field] of [
        [{}, 'body'],
        [{ auto_link: 'yes' }, 'auto_link'],
        [{ name: '   ' }, 'name'],
        [{ colour: 'red' }, 'colour'],
        [{ id: 'brain_other', auto_link: true }, 'id'],
        // Counts are set by the service (and ignored when sent back): alone, nothing to update.
        [{ snapshot_count: 3 }, 'snapshot_count'],
      ] as const) {
        const res = await put(body);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.details.field, field, JSON.stringify(res.body));
      }
      const other = await api.newKey();
      assert.equal((await put({ auto_link: true }, other)).status, 404);
      assert.equal((await api.request('GET', `/v1/brains/${brain.id}`, { key })).body.data.auto_link, false);
    });
  });

  it('an opted-in brain links related snapshots by itself, once, with origin auto', async () => {
    const brain = await newBrain({ name: 'auto', auto_link: true });
    const a = await create(brain.id, FOX);
    const b = await create(brain.id, FOX_TOO);
    await create(brain.id, UNRELATED);
    await linkingSettled(api.request, key, brain.id);
    const edges = await edgesOf(api.request, key, brain.id);
    assert.equal(edges.length, 1, JSON.stringify(edges));
    const [edge] = edges;
    assert.deepEqual(new Set([edge?.source_id, edge?.target_id]), new Set([a.id, b.id]));
    assert.equal(edge?.origin, 'auto');
    assert.match(edge?.label ?? '', /^auto: /);
    assert.ok((edge?.strength ?? 0) >= 0.35 && (edge?.strength ?? 2) <= 1);
    // Writing the snapshot again re-links it: nothing new, nothing duplicated.
    await api.request('PUT', `/v1/snapshots/${a.id}`, { key, body: { core: `${FOX.core} and ears` } });
    await linkingSettled(api.request, key, brain.id);
    assert.deepEqual(await edgesOf(api.request, key, brain.id), edges);
  });

  it('links two snapshots that name the same rare thing, though they share few other words', async () => {
    // Every snapshot is written before any is linked (auto_link turned on afterwards queues them
    // all): how many name a thing is counted when a snapshot is linked.
    const brain = await newBrain({ name: 'shared names' });
    const radio = await create(brain.id, {
      name: 'Smooth jazz radio',
      core: 'Stations played Dave Koz beside the usual saxophone ballads through the nineties',
    });
    const album = await create(brain.id, {
      name: 'Debut records',
      core: 'Dave Koz recorded his first album in 1990 for Capitol Records',
    });
    // "New Haven" is named by four snapshots: a common name joins nothing by itself.
    const towns = [];
    for (const topic of ['harbour ferries', 'pizza ovens', 'rail depots', 'winter storms']) {
      towns.push(await create(brain.id, { name: `Notes on ${topic}`, core: `New Haven has ${topic} of renown` }));
    }
    const on = await api.request('PUT', `/v1/brains/${brain.id}`, { key, body: { auto_link: true } });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    await linkingSettled(api.request, key, brain.id);
    const edges = await edgesOf(api.request, key, brain.id);
    const named = edges.filter((e) => e.label.startsWith('auto: both name'));
    assert.equal(named.length, 1, JSON.stringify(edges));
    const [edge] = named;
    assert.deepEqual(new Set([edge?.source_id, edge?.target_id]), new Set([radio.id, album.id]));
    assert.equal(edge?.edge_type, 'related_to');
    assert.equal(edge?.label, 'auto: both name "Dave Koz"');
    assert.ok((edge?.strength ?? 0) >= 0.6, 'as strong a sign as a mention');
    // Without the shared name the two would not be linked: their words alone score below 0.35.
    const res = await api.request('GET', `/v1/snapshots/${radio.id}/suggestions?limit=50`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const townIds = new Set(towns.map((t) => t.id));
    for (const s of res.body.data as { source_id: string; target_id: string; reason: string }[]) {
      assert.ok(!townIds.has(s.source_id) && !townIds.has(s.target_id), JSON.stringify(s));
    }
  });

  it('never remakes an edge the user deleted, and a user edit makes an auto edge manual', async () => {
    const brain = await newBrain({ name: 'tombstones', auto_link: true });
    const a = await create(brain.id, FOX);
    await create(brain.id, FOX_TOO);
    await linkingSettled(api.request, key, brain.id);
    const [edge] = await edgesOf(api.request, key, brain.id);
    assert.ok(edge);
    assert.equal((await api.request('DELETE', `/v1/edges/${edge.id}`, { key })).status, 200);
    await api.request('PUT', `/v1/snapshots/${a.id}`, { key, body: { one_liner: 'Fox coats change with the season' } });
    await linkingSettled(api.request, key, brain.id);
    assert.deepEqual(await edgesOf(api.request, key, brain.id), []);
    const suggestions = await api.request('GET', `/v1/snapshots/${a.id}/suggestions`, { key });
    assert.ok(
      !suggestions.body.data.some((s: { edge_type: string }) => s.edge_type === edge.edge_type),
      'not suggested again either',
    );
    // By hand it can still be made.
    const again = await api.request('POST', '/v1/edges', {
      key,
      body: { source_id: edge.source_id, target_id: edge.target_id, edge_type: edge.edge_type },
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.data.origin, 'manual');

    const c = await create(brain.id, { ...FOX, name: 'Fox coat notes' });
    await linkingSettled(api.request, key, brain.id);
    const auto = (await edgesOf(api.request, key, brain.id)).find((e) => e.origin === 'auto');
    assert.ok(auto, 'the third fox snapshot was linked');
    assert.ok([auto.source_id, auto.target_id].includes(c.id));
    const edited = await api.request('PUT', `/v1/edges/${auto.id}`, { key, body: { strength: 0.95, origin: 'auto' } });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.data.origin, 'manual');
    const wrong = await api.request('PUT', `/v1/edges/${auto.id}`, { key, body: { origin: 'auto', strength: 0.9 } });
    assert.equal(wrong.status, 400, 'origin is read-only: now manual, "auto" is a change');
  });

  describe('GET /v1/snapshots/:id/suggestions', () => {
    it('proposes edges best first, without existing ones; filters by edge_type; bounds and tenancy', async () => {
      const brain = await newBrain({ name: 'suggest' });
      const a = await create(brain.id, FOX);
      const b = await create(brain.id, FOX_TOO);
      const c = await create(brain.id, { name: 'Red fox', core: 'The red fox lives in forests, not snow' });
      await create(brain.id, UNRELATED);
      const res = await api.request('GET', `/v1/snapshots/${a.id}/suggestions`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ['count', 'data']);
      const list = res.body.data as {
        source_id: string;
        target_id: string;
        score: number;
        reason: string;
        edge_type: string;
        strength: number;
      }[];
      assert.equal(res.body.count, list.length);
      assert.ok(list.length >= 1);
      assert.deepEqual(Object.keys(list[0] as object).sort(), [
        'edge_type',
        'reason',
        'score',
        'source_id',
        'strength',
        'target_id',
      ]);
      const other = (s: { source_id: string; target_id: string }) => (s.source_id === a.id ? s.target_id : s.source_id);
      assert.equal(other(list[0] as (typeof list)[number]), b.id, 'the near-copy first');
      for (let i = 1; i < list.length; i++) assert.ok((list[i - 1]?.score ?? 0) >= (list[i]?.score ?? 0));
      assert.ok(!list.some((s) => other(s) === a.id), 'never itself');
      // Accepting one is an ordinary POST; it is then no longer suggested.
      const best = list[0] as (typeof list)[number];
      const made = await api.request('POST', '/v1/edges', {
        key,
        body: {
          source_id: best.source_id,
          target_id: best.target_id,
          edge_type: best.edge_type,
          strength: best.strength,
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const after = await api.request('GET', `/v1/snapshots/${a.id}/suggestions?limit=50`, { key });
      assert.ok(!after.body.data.some((s: { source_id: string; target_id: string }) => other(s) === b.id));
      const typed = await api.request('GET', `/v1/snapshots/${a.id}/suggestions?edge_type=contradicts`, { key });
      assert.deepEqual(typed.body, { data: [], count: 0 });
      void c;
      for (const query of ['limit=0', 'limit=51', 'limit=x', 'edge_type=likes']) {
        const bad = await api.request('GET', `/v1/snapshots/${a.id}/suggestions?${query}`, { key });
        assert.equal(bad.status, 400, query);
      }
      const stranger = await api.newKey();
      const hidden = await api.request('GET', `/v1/snapshots/${a.id}/suggestions`, { key: stranger });
      assert.equal(hidden.status, 404);
      assert.equal(hidden.body.error.code, 'NOT_FOUND');
      assert.equal((await api.request('GET', '/v1/snapshots/snap_nope/suggestions', { key })).status, 404);
    });

    it('judges the 25 best text matches, the newest first among equals', async () => {
      const brain = await newBrain({ name: 'ties' });
      // Identical texts rank equal: the candidates are then the 26 newest (the snapshot itself
      // among them, as it matches its own words), and every one of them scores alike. With 31
      // the store reads every match at once; with 40, ties reach past the first matches it reads.
      const made: { id: string; created_at: string }[] = [];
      for (const count of [31, 40]) {
        while (made.length < count) {
          const res = await api.request('POST', '/v1/snapshots', { key, body: { ...FOX, brain_id: brain.id } });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          made.push(res.body.data);
        }
        const subject = made.at(-1) as (typeof made)[number];
        const newestFirst = [...made].sort(
          (x, y) => y.created_at.localeCompare(x.created_at) || y.id.localeCompare(x.id),
        );
        const expected = newestFirst
          .slice(0, 26)
          .map((s) => s.id)
          .filter((id) => id !== subject.id);
        const res = await api.request('GET', `/v1/snapshots/${subject.id}/suggestions?limit=50`, { key });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const others = (res.body.data as { source_id: string; target_id: string }[]).map((s) =>
          s.source_id === subject.id ? s.target_id : s.source_id,
        );
        assert.deepEqual(others.sort(), expected.sort(), `${count} alike`);
        const page = await api.request('GET', `/v1/snapshots/${subject.id}/suggestions?limit=3`, { key });
        assert.equal(page.body.data.length, 3);
        assert.equal(page.body.count, expected.length, 'count is every suggestion, not the page');
      }
    });

    it('finds candidates in a brain where every word of the snapshot is in 1,000 others or more', async () => {
      // Each of the subject's words is common, so only the rarest few are searched with (as in a
      // brain of a million snapshots); its twin, the shortest text with all of them, comes first.
      const brain = await newBrain({ name: 'common words' });
      for (let i = 0; i < 1_010; i++) {
        await create(brain.id, { name: `Plain ordinary ${i}`, core: `plain ordinary meadow lantern filler${i}` });
      }
      const text = { name: 'Plain ordinary', core: 'plain ordinary meadow lantern' };
      const twin = await create(brain.id, text);
      const subject = await create(brain.id, text);
      const res = await api.request('GET', `/v1/snapshots/${subject.id}/suggestions?limit=3`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const first = res.body.data[0] as { source_id: string; target_id: string };
      assert.deepEqual([first.source_id, first.target_id].sort(), [subject.id, twin.id].sort());
    });

    it("never suggests another account's snapshots", async () => {
      const stranger = await api.newKey();
      await api.request('POST', '/v1/snapshots', { key: stranger, body: FOX_TOO });
      const mine = await api.request('POST', '/v1/snapshots', { key, body: { ...FOX, name: 'Lonely fox coat' } });
      const res = await api.request('GET', `/v1/snapshots/${mine.body.data.id}/suggestions?limit=50`, { key });
      const ids = res.body.data.flatMap((s: { source_id: string; target_id: string }) => [s.source_id, s.target_id]);
      const theirs = (await api.request('GET', '/v1/snapshots?limit=100', { key: stranger })).body.data.map(
        (s: { id: string }) => s.id,
      );
      assert.ok(!ids.some((id: string) => theirs.includes(id)));
    });
  });
});

describe('queued linking survives a restart', () => {
  it('work queued by a process that stopped is done by the next one', async () => {
    const first = await startTestApi({ backgroundWork: false });
    try {
      const key = await first.newKey();
      const brain = (await first.request('POST', '/v1/brains', { key, body: { name: 'later', auto_link: true } })).body
        .data;
      await first.request('POST', '/v1/snapshots', { key, body: { ...FOX, brain_id: brain.id } });
      await first.request('POST', '/v1/snapshots', { key, body: { ...FOX_TOO, brain_id: brain.id } });
      const queued = await first.request('GET', `/v1/brains/${brain.id}`, { key });
      assert.equal(queued.body.data.pending_work.auto_link, 2);
      await first.app.close();
      const second = await connectTestApi(first.databasePath);
      try {
        await linkingSettled(second.request, key, brain.id);
        const edges = await edgesOf(second.request, key, brain.id);
        assert.equal(edges.length, 1);
        assert.equal(edges[0]?.origin, 'auto');
      } finally {
        await second.close();
      }
    } finally {
      await first.close().catch(() => undefined);
    }
  });
});
