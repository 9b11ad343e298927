// POST /v1/ingest (design §13.3): text into snapshots (and, asked for, memories), linked
// automatically, all in one transaction; never fetches a url.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const CONTENT =
  'The arctic fox grows a thick white winter coat for camouflage in the snow. ' +
  'We decided to film the foxes in February, when the snow is deepest. ' +
  'Arctic foxes always cache food in summer to survive the long winter.';

const FOX =
  'The arctic fox grows a thick white winter coat for camouflage in the snow. ' +
  'This winter coat of the arctic fox keeps it warm at fifty degrees below zero.';

describe('POST /v1/ingest', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const newBrain = async () =>
    (await api.request('POST', '/v1/brains', { key, body: { name: 'b' } })).body.data.id as string;
  const ingest = (body: unknown, prefix = '/v1') => api.request('POST', `${prefix}/ingest`, { key, body });
  const counts = async (brainId: string) => {
    const res = await api.request('GET', `/v1/brains/${brainId}`, { key });
    const memories = await api.request('GET', `/v1/memories?brain_id=${brainId}`, { key });
    return {
      snapshots: res.body.data.snapshot_count as number,
      edges: res.body.data.edge_count as number,
      memories: memories.body.count as number,
    };
  };

  it('makes snapshots carrying the body’s source_type, the ing_ id and the tags; 201', async () => {
    const brainId = await newBrain();
    const res = await ingest({
      content: CONTENT,
      title: 'Field notes',
      source_type: 'article',
      tags: ['wildlife'],
      brain_id: brainId,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { data } = res.body;
    assert.deepEqual(Object.keys(data).sort(), [
      'edges',
      'ingestion_id',
      'memories',
      'snapshots',
      'source_type',
      'title',
    ]);
    assert.match(data.ingestion_id, /^ing_[0-9A-Za-z]{20,}$/);
    assert.equal(data.title, 'Field notes');
    assert.equal(data.source_type, 'article');
    assert.deepEqual(data.memories, [], 'no memories unless asked for');
    assert.ok(data.snapshots.length >= 1);
    for (const snapshot of data.snapshots) {
      assert.equal(snapshot.source_type, 'article');
      assert.equal(snapshot.source_id, data.ingestion_id);
      assert.equal(snapshot.brain_id, brainId);
      assert.ok(snapshot.tags.includes('wildlife'));
      assert.equal(snapshot.source, 'Field notes');
      assert.deepEqual((await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key })).body.data, snapshot);
    }
    const after = await counts(brainId);
    assert.equal(after.snapshots, data.snapshots.length);
    assert.equal(after.edges, data.edges.length);
    assert.equal(after.memories, 0);
  });

  it('defaults: source_type manual, title null, the key’s brain; /api/v1 mirrors it', async () => {
    for (const prefix of ['/v1', '/api/v1']) {
      const res = await ingest({ content: CONTENT }, prefix);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.source_type, 'manual');
      assert.equal(res.body.data.title, null);
      for (const s of res.body.data.snapshots) {
        assert.equal(s.brain_id, key.brainId);
        assert.equal(s.source_type, 'manual');
      }
    }
  });

  it('with extract_memories, keeps the memories the text holds, in the same brain', async () => {
    const brainId = await newBrain();
    const res = await ingest({ content: CONTENT, brain_id: brainId, extract_memories: true, tags: ['field'] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { memories } = res.body.data;
    assert.ok(memories.length >= 1, JSON.stringify(res.body.data));
    for (const memory of memories) {
      assert.match(memory.id, /^mem_/);
      assert.equal(memory.brain_id, brainId);
      assert.ok(
        ['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'].includes(memory.memory_type),
      );
      assert.ok(memory.tags.includes('field'));
      assert.equal(memory.promoted_to, null);
      assert.deepEqual((await api.request('GET', `/v1/memories/${memory.id}`, { key })).body.data, memory);
    }
    assert.equal((await counts(brainId)).memories, memories.length);
  });

  it('two ingests of the same content at the same moment make its snapshots once', async () => {
    const brainId = await newBrain();
    const [a, b] = await Promise.all([
      ingest({ content: CONTENT, brain_id: brainId }),
      ingest({ content: CONTENT, brain_id: brainId }),
    ]);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(b.status, 201, JSON.stringify(b.body));
    const made = [a.body.data.snapshots.length, b.body.data.snapshots.length].sort((x, y) => x - y);
    assert.equal(made[0], 0, JSON.stringify(made));
    assert.ok(made[1] >= 1);
    assert.equal((await counts(brainId)).snapshots, made[1]);
  });

  it('source_type url still needs content, and nothing is fetched', async () => {
    const missing = await ingest({ source_type: 'url', title: 'https://example.com/fox' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details.field, 'content');
    const res = await ingest({ source_type: 'url', title: 'https://example.invalid/fox', content: CONTENT });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.source_type, 'url');
  });

  it('links to what the brain holds unless auto_link is false', async () => {
    // About the same animal and coat, not the same claim (a near-duplicate would be dropped, not linked).
    const existing = { name: 'Arctic fox winter coat', core: 'The arctic fox sheds its white winter coat in spring' };
    const linked = await newBrain();
    await api.request('POST', '/v1/snapshots', { key, body: { ...existing, brain_id: linked } });
    const on = await ingest({ content: FOX, brain_id: linked });
    assert.ok(on.body.data.edges.length >= 1, JSON.stringify(on.body.data));
    for (const edge of on.body.data.edges) assert.equal(edge.origin, 'auto');
    const unlinked = await newBrain();
    await api.request('POST', '/v1/snapshots', { key, body: { ...existing, brain_id: unlinked } });
    const off = await ingest({ content: FOX, brain_id: unlinked, auto_link: false });
    assert.equal(off.status, 201);
    assert.deepEqual(off.body.data.edges, []);
    assert.equal((await counts(unlinked)).edges, 0);
  });

  it('answers 400 for each bad body, naming the field, and writes nothing', async () => {
    const brainId = await newBrain();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'content'],
      [{ content: 'x'.repeat(19) }, 'content'],
      [{ content: `   ${'x'.repeat(19)}   ` }, 'content'],
      [{ content: 'x'.repeat(1_000_001) }, 'content'],
      [{ content: CONTENT, source_type: 'youtube' }, 'source_type'],
      [{ content: CONTENT, title: 't'.repeat(501) }, 'title'],
      [{ content: CONTENT, tags: ['x'.repeat(65)] }, 'tags[0]'],
      [{ content: CONTENT, extract_memories: 'yes' }, 'extract_memories'],
      [{ content: CONTENT, auto_link: 1 }, 'auto_link'],
      [{ content: CONTENT, url: 'https://example.com' }, 'url'],
      [{ content: CONTENT, source_id: 'ing_x' }, 'source_id'],
    ];
    for (const [body, field] of cases) {
      const res = await ingest({ ...body, brain_id: brainId });
      if (res.status === 413) continue; // a million characters and the rest can pass the 1 MiB body limit
      assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.ok(
        res.body.error.details.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    }
    assert.deepEqual(await counts(brainId), { snapshots: 0, edges: 0, memories: 0 });
  });

  it('exactly 20 characters after trimming is enough', async () => {
    const res = await ingest({ content: `  ${'y'.repeat(20)}  `, auto_link: false });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });

  it('a brain not the caller’s is a 404', async () => {
    const other = await api.newKey();
    const res = await ingest({ content: CONTENT, brain_id: other.brainId });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  });
});
