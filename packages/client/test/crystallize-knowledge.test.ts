import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SnapgraphError, type CrystallizeResult } from '../src/index.js';
import { clientSuite } from './live-server.js';

/** A text the built-in extractor turns into several insights (no LLM configured). */
const NOTES = `Always write the test before you fix a bug, because a fix without a test comes back.
I believe small pull requests get better reviews than large ones. Reviewers lose focus after a few hundred lines.
To apply this, split the work into steps that each leave the build green.
However, some changes cannot be split without leaving dead code behind for a while.`;

const SOURCE = `Spaced repetition is defined as reviewing material at increasing intervals to strengthen memory.
The Feynman technique: first, pick a concept; second, explain it in plain words to a child; third, find the gaps and go back to the source.
"The first principle is that you must not fool yourself, and you are the easiest person to fool." said Richard Feynman.`;

/** Crystallize, captures, specific knowledge and jobs through the client, against the real server. */
describe('client: crystallize, captures, knowledge, jobs', () => {
  const live = clientSuite();

  it('crystallize.text makes linked snapshots; getRun tells what the run made', async () => {
    const brain_id = await live.newBrain('crystallize');
    const result = await live.sg.crystallize.text({ text: NOTES, brain_id, source_type: 'notes' });
    assert.match(result.run_id, /^cry_/);
    assert.ok(result.data.count >= 2, JSON.stringify(result.data));
    assert.equal(result.data.snapshots.length, result.data.count);
    for (const snapshot of result.data.snapshots) {
      assert.equal(snapshot.brain_id, brain_id);
      assert.equal(snapshot.source_type, 'notes');
      assert.equal(snapshot.source_id, result.run_id);
    }
    assert.equal(result.usage.model, 'builtin');
    assert.equal(result.meta.finalCount, result.data.count);

    const run = await live.sg.crystallize.getRun(result.run_id);
    assert.equal(run.id, result.run_id);
    assert.equal(run.brain_id, brain_id);
    assert.deepEqual(
      run.snapshot_ids,
      result.data.snapshots.map((s) => s.id),
    );
    assert.deepEqual(run.capture_ids, []);

    // The same text again creates nothing: near-duplicates of the brain are dropped.
    const again = await live.sg.crystallize.text({ text: NOTES, brain_id });
    assert.equal(again.data.count, 0);
  });

  it('review: captures are listed, paged, accepted into snapshots or rejected', async () => {
    const brain_id = await live.newBrain('review');
    const result = await live.sg.crystallize.text({ text: NOTES, brain_id, review: true });
    assert.equal(result.data.count, 0);
    const captures = result.data.captures ?? [];
    assert.ok(captures.length >= 2, JSON.stringify(result.data));
    assert.match(captures[0]!.id, /^cap_/);

    const firstPage = await live.sg.captures.list({ brain_id, limit: 1 });
    assert.equal(firstPage.count, captures.length);
    assert.equal(firstPage.data.length, 1);
    const walked = [];
    for await (const capture of live.sg.captures.iterate({ brain_id, limit: 1 })) walked.push(capture.id);
    assert.deepEqual(walked.sort(), captures.map((c) => c.id).sort());

    const [toAccept, toReject] = captures;
    const snapshot = await live.sg.captures.accept(toAccept!.id);
    assert.match(snapshot.id, /^snap_/);
    assert.equal(snapshot.brain_id, brain_id);
    assert.equal(snapshot.source_id, result.run_id);
    assert.equal(snapshot.name, toAccept!.snapshot.name);
    assert.deepEqual(await live.sg.captures.reject(toReject!.id), { success: true });

    const left = await live.sg.captures.list({ brain_id });
    assert.equal(left.count, captures.length - 2);
    await assert.rejects(live.sg.captures.accept(toAccept!.id), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.code, 'NOT_FOUND');
      return true;
    });
  });

  it('knowledge: ingest, search, sources (paged), entries read and updated, source deleted', async () => {
    const brain_id = await live.newBrain('knowledge');
    const ingested = await live.sg.knowledge.ingest({
      source_type: 'manual',
      title: 'Learning how to learn',
      author: 'Barbara Oakley',
      content: SOURCE,
      domain: 'learning',
      brain_id,
    });
    const { data } = ingested;
    assert.match(data.source_id, /^src_/);
    assert.equal(data.author, 'Barbara Oakley');
    assert.ok(data.entries.length >= 2, JSON.stringify(data.entries));
    assert.equal(data.entries_count, data.entries.length);
    assert.ok(data.snapshots.length >= 1);

    const second = await live.sg.knowledge.ingest({
      source_type: 'document',
      title: 'Notes on reviews',
      content: NOTES,
      brain_id,
      create_snapshots: false,
    });
    assert.deepEqual(second.data.snapshots, []);

    // A POST that only reads leaves the snapshot search cache alone.
    await live.sg.snapshots.search({ q: 'repetition', brain_id });
    const found = await live.sg.knowledge.search({ query: 'repetition', brain_id });
    assert.equal(found.query, 'repetition');
    assert.ok(found.count >= 1);
    assert.equal(found.data[0]!.source_id, data.source_id);
    assert.match(found.data[0]!.similarity, /^\d\.\d{4}$/);
    const before = live.calls.length;
    await live.sg.snapshots.search({ q: 'repetition', brain_id });
    assert.equal(live.calls.length, before, 'the search answer still came from the cache');

    const page = await live.sg.knowledge.listSources({ brain_id, limit: 1 });
    assert.equal(page.count, 2);
    const sources = [];
    for await (const source of live.sg.knowledge.iterateSources({ brain_id, limit: 1 })) sources.push(source.id);
    assert.deepEqual(sources, [second.data.source_id, data.source_id], 'newest first, each once');

    const source = await live.sg.knowledge.getSource(data.source_id);
    assert.deepEqual(source.entries, data.entries);
    assert.deepEqual(
      source.snapshot_ids,
      data.snapshots.map((s) => s.id),
    );

    const entry = data.entries[0]!;
    assert.deepEqual(await live.sg.knowledge.getEntry(entry.id), entry);
    const mastered = await live.sg.knowledge.updateEntry(entry.id, { mastery: 0.75, domain: null });
    assert.equal(mastered.mastery, 0.75);
    assert.equal(mastered.domain, null);

    assert.deepEqual(await live.sg.knowledge.deleteSource(data.source_id), { success: true });
    await assert.rejects(live.sg.knowledge.getEntry(entry.id), { code: 'NOT_FOUND', status: 404 });
    // Snapshots made from the source stay.
    assert.equal((await live.sg.snapshots.get(data.snapshots[0]!.id)).id, data.snapshots[0]!.id);
  });

  it('validation errors name the field', async () => {
    await assert.rejects(live.sg.crystallize.text({ text: 'too short' }), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 400);
      assert.equal(err.details?.field, 'text');
      return true;
    });
    await assert.rejects(live.sg.knowledge.ingest({ source_type: 'manual', title: 'No content' }), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 400);
      assert.equal(err.details?.field, 'content');
      return true;
    });
  });

  it('{ async: true } answers the queued job; waitForJob resolves with the synchronous result', async () => {
    const brain_id = await live.newBrain('jobs');
    const accepted = await live.sg.crystallize.text({ text: NOTES, brain_id }, { async: true });
    assert.match(accepted.job_id, /^job_/);
    assert.equal(accepted.status, 'queued');

    const job = await live.sg.waitForJob<CrystallizeResult>(accepted.job_id, { pollMs: 25 });
    assert.equal(job.status, 'succeeded');
    assert.equal(job.kind, 'crystallize');
    assert.match(job.result.run_id, /^cry_/);
    assert.ok(job.result.data.count >= 2);
    assert.deepEqual((await live.sg.jobs.get(accepted.job_id)).result, job.result);

    // The job's snapshots show in search at once, though a search was cached before they existed.
    await live.sg.snapshots.search({ q: 'pull requests', brain_id });
    const queued = await live.sg.knowledge.ingest(
      { source_type: 'manual', title: 'Reviews', content: `Pull requests: ${NOTES}`, brain_id },
      { async: true },
    );
    const ingestJob = await live.sg.waitForJob(queued.job_id, { pollMs: 25 });
    assert.equal(ingestJob.kind, 'knowledge.ingest');
    const search = await live.sg.snapshots.search({ q: 'pull requests', brain_id });
    assert.ok(search.count >= 1);
  });

  it('waitForJob stops when its signal aborts', async () => {
    const accepted = await live.sg.crystallize.text(
      { text: `${NOTES}\nOne more line to make it new.` },
      { async: true },
    );
    const controller = new AbortController();
    controller.abort(new Error('gave up'));
    await assert.rejects(live.sg.waitForJob(accepted.job_id, { signal: controller.signal }), /gave up/);
    await live.sg.waitForJob(accepted.job_id, { pollMs: 25 });
  });

  it('jobs.get of an unknown job is a 404', async () => {
    await assert.rejects(live.sg.jobs.get('job_01JDQ8Z2X4M3N5P7Q9R1S3T5V7'), { status: 404, code: 'NOT_FOUND' });
  });
});
