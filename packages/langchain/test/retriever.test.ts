import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Document } from '@langchain/core/documents';
import { BaseRetriever } from '@langchain/core/retrievers';
import { RunnableLambda } from '@langchain/core/runnables';
import { SnapgraphClient, SnapgraphError } from '@snapgraph/client';
import { SnapgraphRetriever } from '../src/index.js';
import { liveSuite } from './support.js';

describe('SnapgraphRetriever over snapshots', () => {
  const live = liveSuite();

  it('is a LangChain retriever: invoke answers Documents, best first, with id, score, type and brain in metadata', async () => {
    const compounding = await live.client.snapshots.create({
      name: 'Compounding',
      core: 'Small consistent gains compound over time',
      type: 'Principle',
      one_liner: 'Tiny daily gains beat rare big ones',
    });
    await live.client.snapshots.create({ name: 'Sleep first', core: 'Sleep protects learning and mood' });

    const retriever = new SnapgraphRetriever({ client: live.client });
    assert.ok(retriever instanceof BaseRetriever);
    const docs = await retriever.invoke('compounding gains');
    assert.ok(docs.length >= 1);
    const [best] = docs;
    assert.ok(best instanceof Document);
    assert.equal(best.pageContent, 'Compounding\n\nSmall consistent gains compound over time');
    assert.equal(best.id, compounding.id);
    assert.equal(best.metadata.id, compounding.id);
    assert.equal(best.metadata.source, 'snapshot');
    assert.equal(best.metadata.type, 'Principle');
    assert.equal(best.metadata.brain_id, live.key.brainId);
    assert.equal(best.metadata.one_liner, 'Tiny daily gains beat rare big ones');
    assert.equal(typeof best.metadata.score, 'number');
    assert.ok(best.metadata.score > 0 && best.metadata.score <= 1);
    assert.ok(!docs.some((d) => d.pageContent.startsWith('Sleep first')), 'an unrelated snapshot is not retrieved');
  });

  it('k bounds how many documents come back', async () => {
    for (let i = 0; i < 5; i++) {
      await live.client.snapshots.create({ name: `Habit ${i}`, core: `Habit loop number ${i} shapes routines` });
    }
    assert.equal((await new SnapgraphRetriever({ client: live.client }).invoke('habit loop')).length, 4);
    assert.equal((await new SnapgraphRetriever({ client: live.client, k: 2 }).invoke('habit loop')).length, 2);
    const all = await new SnapgraphRetriever({ client: live.client, k: 10 }).invoke('habit loop');
    assert.equal(all.length, 5);
    const scores = all.map((d) => d.metadata.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'best first',
    );
  });

  it('searches the brain it is given, and the key’s brain when none is', async () => {
    const other = await live.client.brains.create({ name: 'Research' });
    const elsewhere = await live.client.snapshots.create({
      name: 'Ergodicity',
      core: 'Time averages differ from ensemble averages',
      brain_id: other.id,
    });
    assert.deepEqual(await new SnapgraphRetriever({ client: live.client }).invoke('ergodicity'), []);
    const docs = await new SnapgraphRetriever({ client: live.client, brainId: other.id }).invoke('ergodicity');
    assert.deepEqual(
      docs.map((d) => [d.metadata.id, d.metadata.brain_id]),
      [[elsewhere.id, other.id]],
    );
  });

  it('composes in a chain like any retriever', async () => {
    const retriever = new SnapgraphRetriever({ client: live.client, k: 1 });
    const chain = retriever.pipe(RunnableLambda.from((docs: Document[]) => docs.map((d) => d.metadata.id).join(',')));
    assert.match(await chain.invoke('compounding'), /^snap_/);
  });

  it('a refusal of the service reaches the caller as the client’s error', async () => {
    const retriever = new SnapgraphRetriever({ client: live.client, brainId: 'brain_missing' });
    await assert.rejects(retriever.invoke('anything'), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 404);
      return true;
    });
  });
});

describe('SnapgraphRetriever over memories', () => {
  const live = liveSuite();

  it('answers memories as Documents: content as said, who, when, which conversation in metadata', async () => {
    const said = await live.client.memories.create({
      content: 'Ana prefers morning meetings before ten',
      memory_type: 'preference',
      speaker: 'Ana',
      session_id: 'standup-3',
      occurred_at: '2025-03-04T09:15:00Z',
    });
    const plain = await live.client.memories.create({ content: 'Meetings move to the Lyon office in March' });

    const retriever = new SnapgraphRetriever({ client: live.client, source: 'memories', k: 5 });
    const docs = await retriever.invoke('meetings');
    assert.deepEqual(docs.map((d) => d.metadata.id).sort(), [said.id, plain.id].sort());
    const ana = docs.find((d) => d.metadata.id === said.id)!;
    assert.equal(ana.pageContent, 'Ana prefers morning meetings before ten');
    assert.equal(ana.metadata.source, 'memory');
    assert.equal(ana.metadata.type, 'preference');
    assert.equal(ana.metadata.brain_id, live.key.brainId);
    assert.equal(ana.metadata.speaker, 'Ana');
    assert.equal(ana.metadata.session_id, 'standup-3');
    assert.equal(ana.metadata.occurred_at, '2025-03-04T09:15:00.000Z');
    assert.equal(typeof ana.metadata.score, 'number');
    const other = docs.find((d) => d.metadata.id === plain.id)!;
    assert.equal(other.metadata.type, 'fact');
    assert.ok(!('speaker' in other.metadata) && !('session_id' in other.metadata), 'absent, not null');
  });
});

describe('SnapgraphRetriever options', () => {
  const client = new SnapgraphClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sg_unused' });

  it('a wrong k or source fails where the retriever is built', () => {
    assert.throws(() => new SnapgraphRetriever({ client, k: 0 }), /`k` is a whole number from 1 to 100/);
    assert.throws(() => new SnapgraphRetriever({ client, k: 101 }), RangeError);
    assert.throws(() => new SnapgraphRetriever({ client, k: 2.5 }), RangeError);
    assert.throws(
      () => new SnapgraphRetriever({ client, source: 'edges' as 'snapshots' }),
      /`source` is "snapshots" or "memories"/,
    );
    assert.throws(() => new SnapgraphRetriever({} as never), /`client`/);
  });
});
