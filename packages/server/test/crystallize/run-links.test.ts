// A crystallize run with the built-in extractor, through HTTP on the configured store (SQLite, or
// PostgreSQL with SNAPGRAPH_TEST_BACKEND=postgres): its snapshots are valid, linked among
// themselves by automatic edges, counted in `meta.edgeCount`, and `meta.noEdgeReason` says why
// when a run makes none; the same text twice creates nothing new.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/** Three decisions about one thing: each a snapshot, sharing most of their words. */
const DECISIONS = [
  'Decision: every service keeps its database migrations in its own repository.',
  'Decision: the database migrations of every service run before the service deploys.',
  'Decision: a failed database migration stops the deploy of that service.',
].join('\n');

const MEETING = [
  'Weekly sync, 2 March',
  'Attendees: Nadia Kaur, Oskar Lind',
  '',
  'Hi all, thanks for joining.',
  '',
  'The trial conversion fell from 12% to 9% after the new signup form. Oskar thinks the extra field scares people off.',
  '',
  'Decision: the signup form goes back to two fields.',
  '',
  'Action items:',
  '- Nadia removes the company field by Thursday.',
  '- Oskar measures the conversion again in two weeks.',
  '',
  "That's all, see you next week.",
].join('\n');

const ARGUMENT =
  'Cities should replace on-street parking with bike lanes. Most trips in town are shorter than five kilometres. ' +
  'Shop owners often claim that they would lose customers. But cyclists visit shops more often and spend more per month.';

describe('crystallize: links, meta and validity of a run', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const newBrain = async () => {
    const res = await api.request('POST', '/v1/brains', { key, body: { name: 'run links' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const run = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/crystallize', { key, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };

  it("links the run's new snapshots among themselves, origin auto, and meta counts the edges", async () => {
    const brainId = await newBrain();
    const body = await run({ text: DECISIONS, brain_id: brainId });
    assert.equal(body.data.count, 3, JSON.stringify(body.data.snapshots.map((s: { core: string }) => s.core)));
    const ids = new Set(body.data.snapshots.map((s: { id: string }) => s.id));
    assert.ok(body.data.edges.length >= 2, JSON.stringify(body.data.edges));
    for (const edge of body.data.edges) {
      assert.equal(edge.origin, 'auto');
      assert.ok(ids.has(edge.source_id) && ids.has(edge.target_id), 'both ends are snapshots of the run');
    }
    assert.equal(body.meta.edgeCount, body.data.edges.length);
    assert.equal(body.meta.noEdgeReason, undefined);
    const stored = await api.request('GET', `/v1/crystallize/${body.run_id}`, { key });
    assert.equal(stored.body.data.meta.edgeCount, body.data.edges.length);
    const brain = await api.request('GET', `/v1/brains/${brainId}`, { key });
    assert.equal(brain.body.data.edge_count, body.data.edges.length);
  });

  it('a run that makes no edge says why', async () => {
    const lone = await run({ text: ARGUMENT, brain_id: await newBrain() });
    assert.equal(lone.data.count, 1);
    assert.equal(lone.meta.edgeCount, 0);
    assert.match(lone.meta.noEdgeReason, /^one new snapshot, and no snapshot of the brain shares enough words/);

    const off = await run({ text: DECISIONS, brain_id: await newBrain(), auto_link: false });
    assert.equal(off.meta.edgeCount, 0);
    assert.equal(off.meta.noEdgeReason, 'auto_link is false');

    const review = await run({ text: DECISIONS, brain_id: await newBrain(), review: true });
    assert.equal(review.meta.noEdgeReason, 'review run: a capture is linked when it is accepted');
  });

  it('the same text twice creates nothing new: no snapshot, no edge', async () => {
    const brainId = await newBrain();
    const first = await run({ text: MEETING, brain_id: brainId });
    assert.ok(first.data.count >= 3);
    const second = await run({ text: MEETING, brain_id: brainId });
    assert.equal(second.data.count, 0);
    assert.deepEqual(second.data.edges, []);
    assert.equal(second.meta.noEdgeReason, 'no new snapshot: nothing to link');
    const brain = await api.request('GET', `/v1/brains/${brainId}`, { key });
    assert.equal(brain.body.data.snapshot_count, first.data.count);
    assert.equal(brain.body.data.edge_count, first.data.edges.length);
  });

  it('every snapshot the extractor makes is valid: its fields are accepted by POST /v1/snapshots as they are', async () => {
    const brainId = await newBrain();
    for (const text of [MEETING, ARGUMENT, DECISIONS, `Base64 blob follows: ${'QUJD'.repeat(5_000)} and so on.`]) {
      const body = await run({ text, brain_id: await newBrain() });
      for (const s of body.data.snapshots) {
        const fields = ['name', 'core', 'type', 'one_liner', 'story', 'method', 'steps', 'challenge', 'proof', 'tags'];
        const copy: Record<string, unknown> = { brain_id: brainId };
        for (const field of [...fields, 'confidence', 'significance_score'])
          if (s[field] !== null) copy[field] = s[field];
        const res = await api.request('POST', '/v1/snapshots', { key, body: copy });
        assert.equal(res.status, 201, `${JSON.stringify(res.body)} for ${JSON.stringify(copy)}`);
      }
    }
  });

  it('meeting notes: decisions and action items are Rules; no header, attendee or greeting line; no name as a tag', async () => {
    const body = await run({ text: MEETING, brain_id: await newBrain() });
    const snapshots = body.data.snapshots as { core: string; name: string; type: string; tags: string[] }[];
    const rules = snapshots.filter((s) => s.type === 'Rule').map((s) => s.core);
    assert.deepEqual(rules, [
      'The signup form goes back to two fields.',
      'Nadia removes the company field by Thursday.',
      'Oskar measures the conversion again in two weeks.',
    ]);
    for (const s of snapshots) {
      assert.doesNotMatch(`${s.name} ${s.core}`, /Weekly sync|Attendees|thanks for joining|see you next week/);
      for (const name of ['nadia', 'kaur', 'oskar', 'lind']) assert.equal(s.tags.includes(name), false, name);
    }
  });
});
