// POST /v1/memories/:id/crystallize (design §12.4): a memory promoted into snapshots with
// source_type "memory", promoted_to set, automatic edges made, all in one transaction, and
// idempotent: promoting again answers 200 with the same snapshots and creates nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { testBackend } from '../helpers/database.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { waitForJob } from '../jobs/support.js';

const FOX =
  'The arctic fox grows a thick white winter coat for camouflage in the snow. ' +
  'This winter coat of the arctic fox keeps it warm at fifty degrees below zero.';
// Two insights the built-in extractor keeps apart: one promotion, two snapshots.
const TWO_INSIGHTS =
  'I think that the best hiring signal is how a candidate explains a past mistake. ' +
  'I am convinced that small teams always ship faster than large committees.';
const EXISTING = { name: 'Arctic fox winter coat', core: 'The arctic fox grows a thick white winter coat in snow' };

describe('memory promotion', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const newBrain = async () =>
    (await api.request('POST', '/v1/brains', { key, body: { name: 'b' } })).body.data.id as string;
  const remember = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/memories', { key, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data;
  };
  const promote = (id: string, body?: unknown, prefix = '/v1') =>
    api.request('POST', `${prefix}/memories/${id}/crystallize`, { key, ...(body !== undefined ? { body } : {}) });
  const counts = async (brainId: string) => {
    const res = await api.request('GET', `/v1/brains/${brainId}`, { key });
    return { snapshots: res.body.data.snapshot_count as number, edges: res.body.data.edge_count as number };
  };

  it('promotes into snapshots (source_type memory, source_id the memory) and sets promoted_to to the first', async () => {
    const brainId = await newBrain();
    const memory = await remember({
      content: FOX,
      memory_type: 'insight',
      tags: ['wildlife'],
      source_emotion: 'awe',
      emotional_valence: 0.8,
      brain_id: brainId,
    });
    const res = await promote(memory.id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { data } = res.body;
    assert.deepEqual(Object.keys(data).sort(), ['edges', 'memory', 'snapshots']);
    assert.ok(data.snapshots.length >= 1);
    for (const snapshot of data.snapshots) {
      assert.match(snapshot.id, /^snap_/);
      assert.equal(snapshot.source_type, 'memory');
      assert.equal(snapshot.source_id, memory.id);
      assert.equal(snapshot.brain_id, brainId);
      assert.ok(snapshot.tags.includes('wildlife'), 'the memory’s tags carry over');
      assert.deepEqual(snapshot.emotion, { primary: 'awe', valence: 0.8 });
      const stored = await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key });
      assert.deepEqual(stored.body.data, snapshot);
    }
    assert.equal(data.memory.id, memory.id);
    assert.equal(data.memory.promoted_to, data.snapshots[0].id);
    assert.ok(data.memory.updated_at > memory.updated_at, 'the promotion is a change of the memory');
    const read = await api.request('GET', `/v1/memories/${memory.id}`, { key });
    assert.deepEqual(read.body.data, data.memory);
    assert.equal((await counts(brainId)).snapshots, data.snapshots.length);
  });

  it('promoting again answers 200 with the same snapshots, creating nothing', async () => {
    const brainId = await newBrain();
    const memory = await remember({ content: FOX, brain_id: brainId });
    const first = await promote(memory.id);
    assert.equal(first.status, 201);
    const before = await counts(brainId);
    for (const prefix of ['/v1', '/api/v1']) {
      const again = await promote(memory.id, {}, prefix);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual(again.body.data.snapshots, first.body.data.snapshots);
      assert.deepEqual(again.body.data.memory, first.body.data.memory);
      assert.deepEqual(again.body.data.edges, []);
    }
    assert.deepEqual(await counts(brainId), before);
  });

  it('promoting again answers with the memory’s own snapshots, not the copies an import made in another brain', async () => {
    const brainId = await newBrain();
    const memory = await remember({ content: FOX, brain_id: brainId });
    const first = await promote(memory.id);
    assert.equal(first.status, 201);
    const exported = await api.request('GET', `/v1/brains/${brainId}/export`, { key });
    assert.equal(exported.status, 200);
    const other = await newBrain();
    const accepted = await api.request('POST', `/v1/brains/import?brain_id=${other}`, {
      key,
      rawBody: exported.body as string,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const job = await waitForJob(api.request, key, accepted.body.data.job_id);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    assert.equal((await counts(other)).snapshots, first.body.data.snapshots.length, 'the copies are there');
    const again = await promote(memory.id);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data.snapshots, first.body.data.snapshots);

    // The copy of the memory names the copies of its snapshots, and they name it.
    const copies = await api.request('GET', `/v1/memories?brain_id=${other}`, { key });
    const copy = copies.body.data[0] as { id: string; promoted_to: string };
    const copied = await promote(copy.id);
    assert.equal(copied.status, 200, JSON.stringify(copied.body));
    assert.equal(copied.body.data.snapshots.length, first.body.data.snapshots.length);
    assert.equal(copied.body.data.snapshots[0].id, copy.promoted_to);
    for (const snapshot of copied.body.data.snapshots) assert.equal(snapshot.source_id, copy.id);
  });

  it('two promotions racing make the snapshots once: one 201, one 200 with the same snapshots', async () => {
    const brainId = await newBrain();
    const memory = await remember({ content: FOX, brain_id: brainId });
    const [a, b] = await Promise.all([promote(memory.id), promote(memory.id)]);
    assert.deepEqual([a.status, b.status].sort(), [200, 201], JSON.stringify([a.body, b.body]));
    assert.deepEqual(
      a.body.data.snapshots.map((s: { id: string }) => s.id),
      b.body.data.snapshots.map((s: { id: string }) => s.id),
    );
    assert.equal((await counts(brainId)).snapshots, a.body.data.snapshots.length);
  });

  it('a memory too short for an insight still promotes: one snapshot whose core is the memory', async () => {
    const memory = await remember({ content: 'Prefers tea', memory_type: 'preference', tags: ['drinks'] });
    const res = await promote(memory.id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.snapshots.length, 1);
    const [snapshot] = res.body.data.snapshots;
    assert.equal(snapshot.core, 'Prefers tea');
    assert.equal(snapshot.name, 'Prefers tea');
    assert.equal(snapshot.type, 'Conviction');
    assert.deepEqual(snapshot.tags, ['drinks']);
    assert.equal(snapshot.emotion, null);
    assert.equal(res.body.data.memory.promoted_to, snapshot.id);
  });

  it('a long memory without an insight is named by its first words', async () => {
    const content = 'ok '.repeat(30).trim();
    const memory = await remember({ content });
    const res = await promote(memory.id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const snapshot = res.body.data.snapshots[0];
    assert.ok(snapshot.name.length <= 200);
    assert.ok(snapshot.name.startsWith('ok ok'));
  });

  it('links the new snapshots to what the brain holds, unless auto_link is false', async () => {
    const linked = await newBrain();
    const old = await api.request('POST', '/v1/snapshots', { key, body: { ...EXISTING, brain_id: linked } });
    const memory = await remember({ content: FOX, brain_id: linked });
    const res = await promote(memory.id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.ok(res.body.data.edges.length >= 1, JSON.stringify(res.body.data));
    for (const edge of res.body.data.edges) {
      assert.equal(edge.origin, 'auto');
      assert.equal(edge.brain_id, linked);
    }
    assert.ok(
      res.body.data.edges.some((e: { source_id: string; target_id: string }) =>
        [e.source_id, e.target_id].includes(old.body.data.id),
      ),
    );
    assert.equal((await counts(linked)).edges, res.body.data.edges.length);

    const unlinked = await newBrain();
    await api.request('POST', '/v1/snapshots', { key, body: { ...EXISTING, brain_id: unlinked } });
    const quiet = await remember({ content: FOX, brain_id: unlinked });
    const off = await promote(quiet.id, { auto_link: false });
    assert.equal(off.status, 201);
    assert.deepEqual(off.body.data.edges, []);
    assert.equal((await counts(unlinked)).edges, 0);
  });

  it('refuses a bad body with 400 and promotes nothing; 404 for a missing memory', async () => {
    const memory = await remember({ content: FOX });
    // JSON null is a body that is not an object, as for POST /v1/crystallize (it was taken for no body).
    for (const body of [{ auto_link: 'no' }, { review: true }, [], null]) {
      const res = await promote(memory.id, body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
    }
    assert.equal((await api.request('GET', `/v1/memories/${memory.id}`, { key })).body.data.promoted_to, null);
    const missing = await promote('mem_00000000000000000000000000');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'NOT_FOUND');
  });

  it('deleting the snapshot promoted_to names moves it to the next of the promotion, then to null', async () => {
    const memory = await remember({ content: TWO_INSIGHTS });
    const promoted = (await promote(memory.id)).body.data;
    const [first, second, ...rest] = promoted.snapshots as { id: string }[];
    assert.ok(first && second, `two snapshots expected, got ${promoted.snapshots.length}`);
    const read = async () => (await api.request('GET', `/v1/memories/${memory.id}`, { key })).body.data;

    assert.equal((await api.request('DELETE', `/v1/snapshots/${first.id}`, { key })).status, 200);
    const afterFirst = await read();
    assert.equal(afterFirst.promoted_to, second.id);
    assert.ok(afterFirst.updated_at > promoted.memory.updated_at, 'promoted_to changed, so updated_at moves');
    const again = await promote(memory.id);
    assert.equal(again.status, 200, 'still promoted: nothing is made');
    assert.deepEqual(
      again.body.data.snapshots.map((s: { id: string }) => s.id),
      [second, ...rest].map((s) => s.id),
    );

    // Another snapshot of the promotion deleted: promoted_to, already past it, stays.
    for (const snapshot of rest) await api.request('DELETE', `/v1/snapshots/${snapshot.id}`, { key });
    assert.equal((await read()).promoted_to, second.id);

    assert.equal((await api.request('DELETE', `/v1/snapshots/${second.id}`, { key })).status, 200);
    const none = await read();
    assert.equal(none.promoted_to, null, 'no snapshot of the promotion is left');
    assert.ok(none.updated_at > afterFirst.updated_at);
    const anew = await promote(memory.id);
    assert.equal(anew.status, 201, 'a memory whose snapshots are all gone can be promoted again');
    assert.equal(anew.body.data.memory.promoted_to, anew.body.data.snapshots[0].id);
    assert.equal((await read()).promoted_to, anew.body.data.snapshots[0].id);
  });

  it('the snapshots of one promotion deleted at once leave promoted_to null, never naming one of them', async () => {
    for (let round = 0; round < 5; round++) {
      const memory = await remember({ content: TWO_INSIGHTS });
      const promoted = (await promote(memory.id)).body.data;
      const deletes = await Promise.all(
        promoted.snapshots.map((s: { id: string }) => api.request('DELETE', `/v1/snapshots/${s.id}`, { key })),
      );
      assert.deepEqual(
        deletes.map((d) => d.status),
        promoted.snapshots.map(() => 200),
      );
      const read = await api.request('GET', `/v1/memories/${memory.id}`, { key });
      assert.equal(read.body.data.promoted_to, null, `round ${round}`);
    }
  });

  it(
    'PostgreSQL: two deletes of one promotion held up together by a lock on the memory leave promoted_to null',
    { skip: testBackend !== 'postgres' && 'the race is between PostgreSQL transactions' },
    async () => {
      // The memory's row is held while both deletes start: without the lock the delete takes on
      // the memory first, one delete waits on that row with a view of the data in which the other
      // snapshot still exists, and moves promoted_to onto it after the other has deleted it.
      const memory = await remember({ content: TWO_INSIGHTS, brain_id: await newBrain() });
      const promoted = (await promote(memory.id)).body.data;
      assert.equal(promoted.snapshots.length, 2);
      const holder = new pg.Client({ connectionString: api.databasePath });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM memories WHERE id = $1 FOR UPDATE', [memory.id]);
        const deletes = Promise.all(
          promoted.snapshots.map((s: { id: string }) => api.request('DELETE', `/v1/snapshots/${s.id}`, { key })),
        );
        const waiting = async () =>
          (
            await holder.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
          ).rows[0].n as number;
        for (let i = 0; i < 400 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
        // Time for the second delete to reach the lock too (or, without it, to finish).
        await new Promise((r) => setTimeout(r, 300));
        await holder.query('COMMIT');
        assert.deepEqual(
          (await deletes).map((d) => d.status),
          [200, 200],
        );
      } finally {
        await holder.end();
      }
      const read = await api.request('GET', `/v1/memories/${memory.id}`, { key });
      assert.equal(read.body.data.promoted_to, null);
    },
  );

  it('deleting a snapshot another account promoted into leaves that memory alone', async () => {
    const memory = await remember({ content: FOX });
    const promoted = (await promote(memory.id)).body.data;
    const other = await api.newKey();
    const res = await api.request('DELETE', `/v1/snapshots/${promoted.snapshots[0].id}`, { key: other });
    assert.equal(res.status, 404);
    assert.deepEqual((await api.request('GET', `/v1/memories/${memory.id}`, { key })).body.data, promoted.memory);
  });

  it('deleting a promoted memory leaves its snapshots; a PUT keeps promoted_to', async () => {
    const memory = await remember({ content: FOX });
    const res = await promote(memory.id);
    const put = await api.request('PUT', `/v1/memories/${memory.id}`, { key, body: { memory_type: 'insight' } });
    assert.equal(put.status, 200);
    assert.equal(put.body.data.promoted_to, res.body.data.memory.promoted_to);
    const gone = await api.request('DELETE', `/v1/memories/${memory.id}`, { key });
    assert.equal(gone.status, 200);
    for (const snapshot of res.body.data.snapshots) {
      assert.equal((await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key })).status, 200);
    }
  });
});
