import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SnapgraphError, type IngestResult } from '../src/index.js';
import { clientSuite } from './live-server.js';

const FIELD_NOTES =
  'The arctic fox grows a thick white winter coat for camouflage in the snow. ' +
  'We decided to film the foxes in February, when the snow is deepest. ' +
  'Arctic foxes always cache food in summer to survive the long winter.';

/** Memories and `POST /v1/ingest` through the client, against the real server. */
describe('client: memories and ingest', () => {
  const live = clientSuite();

  it('create and remember keep a memory; get, update and delete it', async () => {
    const brain_id = await live.newBrain('memories');
    const created = await live.sg.memories.create({
      content: 'Prefers morning meetings before ten',
      memory_type: 'preference',
      speaker: 'Ana',
      tags: ['work'],
      emotional_valence: 0.5,
      brain_id,
    });
    assert.match(created.id, /^mem_/);
    assert.equal(created.brain_id, brain_id);
    assert.equal(created.memory_type, 'preference');
    assert.equal(created.speaker, 'Ana');
    assert.deepEqual(created.tags, ['work']);
    assert.equal(created.source_emotion, null, 'every field is present, null when unset');
    assert.equal(created.promoted_to, null);

    const remembered = await live.sg.memories.remember({ content: 'The office moves to Lyon in March', brain_id });
    assert.equal(remembered.memory_type, 'fact', 'fact is the default type');
    assert.deepEqual(await live.sg.memories.get(remembered.id), remembered);

    const updated = await live.sg.memories.update(created.id, { tags: ['work', 'calendar'], speaker: null });
    assert.deepEqual(updated.tags, ['work', 'calendar']);
    assert.equal(updated.speaker, null);
    assert.equal(updated.content, created.content);

    assert.deepEqual(await live.sg.memories.delete(remembered.id), { success: true });
    await assert.rejects(live.sg.memories.get(remembered.id), { status: 404, code: 'NOT_FOUND' });
  });

  it('list filters and pages by cursor, newest first; iterate walks every memory once', async () => {
    const brain_id = await live.newBrain('paging');
    const ids: string[] = [];
    for (const [i, memory_type] of (['fact', 'decision', 'fact', 'event', 'fact'] as const).entries()) {
      ids.push(
        (await live.sg.memories.create({ content: `Memory number ${i}`, memory_type, brain_id, tags: [`n${i}`] })).id,
      );
    }
    const page = await live.sg.memories.list({ brain_id, limit: 2 });
    assert.equal(page.count, 5);
    assert.deepEqual(
      page.data.map((m) => m.id),
      [ids[4], ids[3]],
    );
    const pages = [];
    for await (const p of live.sg.memories.pages({ brain_id, limit: 2 })) pages.push(p.data.length);
    assert.deepEqual(pages, [2, 2, 1]);
    const walked = [];
    for await (const m of live.sg.memories.iterate({ brain_id, limit: 2 })) walked.push(m.id);
    assert.deepEqual(walked, [...ids].reverse());

    const facts = await live.sg.memories.list({ brain_id, memory_type: 'fact' });
    assert.equal(facts.count, 3);
    const tagged = await live.sg.memories.list({ brain_id, tag: 'n3' });
    assert.deepEqual(
      tagged.data.map((m) => m.id),
      [ids[3]],
    );
  });

  it('search finds memories best first; a POST that only reads leaves the search cache alone', async () => {
    const brain_id = await live.newBrain('search');
    const kayak = await live.sg.memories.create({ content: 'Bought a red kayak for the summer lake trips', brain_id });
    await live.sg.memories.create({
      content: 'Decided to learn Portuguese before the trip',
      memory_type: 'decision',
      brain_id,
    });
    await live.sg.snapshots.create({ name: 'Kayaking', core: 'Paddling calms the mind', brain_id });

    await live.sg.snapshots.search({ q: 'kayak', brain_id });
    const found = await live.sg.memories.search({ query: 'kayak', brain_id });
    assert.equal(found.query, 'kayak');
    assert.equal(found.count, 1);
    assert.equal(found.data[0]!.id, kayak.id);
    assert.match(found.data[0]!.similarity, /^\d\.\d{4}$/);
    assert.equal(typeof found.data[0]!.score, 'number');
    const before = live.calls.length;
    await live.sg.snapshots.search({ q: 'kayak', brain_id });
    assert.equal(live.calls.length, before, 'the snapshot search answer still came from the cache');

    const decisions = await live.sg.memories.search({ query: 'kayak', brain_id, memory_type: 'decision' });
    assert.equal(decisions.count, 0);
  });

  it('a changed fact: superseded_by and superseded_at, history oldest first, current_only and as_of (design §6.1)', async () => {
    const brain_id = await live.newBrain('versions');
    const before = await live.sg.memories.create({
      content: 'The team offsite is in Lisbon.',
      occurred_at: '2025-03-01T09:00:00Z',
      brain_id,
    });
    const after = await live.sg.memories.create({
      content: 'The team offsite is in Porto.',
      occurred_at: '2025-03-05T09:00:00Z',
      brain_id,
    });
    const replaced = await live.sg.memories.get(before.id);
    assert.equal(replaced.superseded_by, after.id);
    assert.equal(replaced.superseded_at, '2025-03-05T09:00:00.000Z');
    assert.deepEqual(
      (await live.sg.memories.history(after.id)).map((m) => m.id),
      [before.id, after.id],
    );
    const current = await live.sg.memories.list({ brain_id, current_only: true });
    assert.deepEqual(
      current.data.map((m) => m.id),
      [after.id],
    );
    const then = await live.sg.memories.search({ query: 'team offsite', brain_id, as_of: '2025-03-02' });
    assert.deepEqual(
      then.data.map((m) => [m.id, m.superseded_by]),
      [[before.id, null]],
    );
    const corrected = await live.sg.memories.update(before.id, { superseded_by: null });
    assert.equal(corrected.superseded_by, null);
    await assert.rejects(live.sg.memories.update(before.id, { superseded_by: before.id }), {
      status: 400,
      code: 'BAD_REQUEST',
    });
  });

  it('promote makes linked snapshots once; again answers the same snapshots', async () => {
    const brain_id = await live.newBrain('promote');
    const memory = await live.sg.memories.create({
      content: 'Always write the test before you fix a bug, because a fix without a test comes back.',
      memory_type: 'insight',
      brain_id,
    });
    const promoted = await live.sg.memories.promote(memory.id);
    assert.ok(promoted.snapshots.length >= 1, JSON.stringify(promoted));
    for (const snapshot of promoted.snapshots) {
      assert.equal(snapshot.source_type, 'memory');
      assert.equal(snapshot.source_id, memory.id);
      assert.equal(snapshot.brain_id, brain_id);
    }
    assert.equal(promoted.memory.promoted_to, promoted.snapshots[0]!.id);

    const again = await live.sg.memories.promote(memory.id, { auto_link: false });
    assert.deepEqual(
      again.snapshots.map((s) => s.id),
      promoted.snapshots.map((s) => s.id),
    );
    assert.deepEqual(again.edges, []);
    assert.equal((await live.sg.snapshots.list({ brain_id })).count, promoted.snapshots.length);
  });

  it('ingest stores snapshots and, with extract_memories, memories; async runs it as a job', async () => {
    const brain_id = await live.newBrain('ingest');
    const result = await live.sg.ingest({
      content: FIELD_NOTES,
      title: 'Fox field notes',
      source_type: 'document',
      tags: ['field'],
      extract_memories: true,
      brain_id,
    });
    const { data } = result;
    assert.match(data.ingestion_id, /^ing_/);
    assert.equal(data.title, 'Fox field notes');
    assert.equal(data.source_type, 'document');
    assert.ok(data.snapshots.length >= 1, JSON.stringify(data));
    for (const snapshot of data.snapshots) assert.equal(snapshot.source_id, data.ingestion_id);
    assert.ok(data.memories.length >= 1, JSON.stringify(data));
    assert.deepEqual(await live.sg.memories.get(data.memories[0]!.id), data.memories[0]);

    const accepted = await live.sg.ingest(
      { content: `Second visit. ${FIELD_NOTES.replace('February', 'March')}`, brain_id, auto_link: false },
      { async: true, idempotencyKey: 'ingest-fox-2' },
    );
    assert.match(accepted.job_id, /^job_/);
    const job = await live.sg.waitForJob<IngestResult>(accepted.job_id, { pollMs: 25 });
    assert.equal(job.status, 'succeeded');
    assert.match(job.result.data.ingestion_id, /^ing_/);
    assert.deepEqual(job.result.data.memories, [], 'extract_memories defaults to false');
  });

  it('an Idempotency-Key answers the first ingest again without storing twice', async () => {
    const brain_id = await live.newBrain('idempotent');
    const body = { content: FIELD_NOTES, brain_id };
    const first = await live.sg.ingest(body, { idempotencyKey: 'fox-notes-1' });
    const second = await live.sg.ingest(body, { idempotencyKey: 'fox-notes-1' });
    assert.deepEqual(second, first);
    assert.equal((await live.sg.snapshots.list({ brain_id })).count, first.data.snapshots.length);
    await assert.rejects(live.sg.ingest({ ...body, title: 'Other' }, { idempotencyKey: 'fox-notes-1' }), {
      status: 409,
    });
  });

  it('validation errors name the field', async () => {
    await assert.rejects(live.sg.memories.create({ content: '   ' }), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 400);
      assert.equal(err.details?.field, 'content');
      return true;
    });
    await assert.rejects(live.sg.ingest({ content: 'too short' }), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 400);
      assert.equal(err.details?.field, 'content');
      return true;
    });
    await assert.rejects(live.sg.memories.promote('mem_01JDQ8Z2X4M3N5P7Q9R1S3T5V7'), {
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
