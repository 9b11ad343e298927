import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../../server/test/helpers/fake-openai.js';
import { SnapgraphClient, SnapgraphError } from '../src/index.js';
import { countingFetch, startLiveServer, type LiveServer } from './live-server.js';

const NOTES = `Always write the test before you fix a bug, because a fix without a test comes back.
I believe small pull requests get better reviews than large ones. Reviewers lose focus after a few hundred lines.`;

/** `Idempotency-Key` on POST methods, and a failed job as the error the synchronous call would throw. */
describe('client: Idempotency-Key and failed jobs', () => {
  let llm: FakeOpenAI;
  let server: LiveServer;
  let sg: SnapgraphClient;
  let headersSent: Headers[];
  before(async () => {
    llm = await startFakeOpenAI();
    server = await startLiveServer({
      llm: { baseUrl: llm.url, apiKey: undefined, model: 'fake', timeoutMs: 2_000, contextTokens: 4096 },
    });
    const key = await server.newKey();
    headersSent = [];
    const counting = countingFetch();
    sg = new SnapgraphClient({
      baseUrl: server.baseUrl,
      apiKey: key.key,
      fetch: (input, init) => {
        headersSent.push(new Headers(init?.headers));
        return counting.fetch(input, init);
      },
    });
  });
  after(async () => {
    await server.close();
    await llm.close();
  });

  it('the same idempotencyKey and body replays the first answer; another body is a 409', async () => {
    const key = `create-${Date.now()}`;
    const first = await sg.snapshots.create({ name: 'Once', core: 'Created once' }, { idempotencyKey: key });
    const again = await sg.snapshots.create({ name: 'Once', core: 'Created once' }, { idempotencyKey: key });
    assert.deepEqual(again, first);
    assert.equal(headersSent.at(-1)?.get('idempotency-key'), key);
    assert.equal((await sg.snapshots.list({ limit: 100 })).count, 1, 'the work was done once');

    await assert.rejects(
      sg.snapshots.create({ name: 'Other', core: 'Another body' }, { idempotencyKey: key }),
      (err: unknown) => {
        assert.ok(err instanceof SnapgraphError);
        assert.equal(err.status, 409);
        assert.equal(err.details?.field, 'Idempotency-Key');
        return true;
      },
    );
  });

  it('sends no Idempotency-Key unless asked, and Prefer only with { async: true }', async () => {
    const brain = await sg.brains.create({ name: 'plain' }, { idempotencyKey: 'brain-1' });
    assert.equal(headersSent.at(-1)?.get('idempotency-key'), 'brain-1');
    await sg.brains.create({ name: 'plain too' });
    assert.equal(headersSent.at(-1)?.get('idempotency-key'), null);
    assert.equal(headersSent.at(-1)?.get('prefer'), null);
    assert.match(brain.id, /^brain_/);
  });

  it('a job that failed rejects waitForJob with the error of the synchronous call', async () => {
    llm.script('chat', behave.status(400, { message: 'no such model' }));
    const accepted = await sg.crystallize.text({ text: NOTES }, { async: true, idempotencyKey: 'cry-1' });
    assert.equal(headersSent.at(-1)?.get('prefer'), 'respond-async');
    await assert.rejects(sg.waitForJob(accepted.job_id, { pollMs: 25 }), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.code, 'PROVIDER_ERROR');
      assert.equal(err.status, 502);
      assert.match(err.requestId ?? '', /^req_/);
      return true;
    });
    const job = await sg.jobs.get(accepted.job_id);
    assert.equal(job.status, 'failed');

    // The same key and body answers the same job, not a second one.
    const replay = await sg.crystallize.text({ text: NOTES }, { async: true, idempotencyKey: 'cry-1' });
    assert.equal(replay.job_id, accepted.job_id);
  });
});
