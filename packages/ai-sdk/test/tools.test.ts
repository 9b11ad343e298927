import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolExecutionOptions } from 'ai';
import { SnapgraphError, type SnapgraphClient } from '@snapgraph/client';
import { snapgraphTools } from '../src/index.js';
import { liveSuite } from '../../langchain/test/support.js';

/** What the SDK passes `execute` beside the input. */
const call = (id = 'call_1'): ToolExecutionOptions => ({ toolCallId: id, messages: [] });

/** A tool's execute, which every Snapgraph tool has. */
function exec<I, O>(t: { execute?: (input: I, options: ToolExecutionOptions) => unknown }) {
  assert.ok(t.execute, 'the tool has execute');
  return (input: I) => t.execute!(input, call()) as Promise<O>;
}

const NOTES =
  'Compounding: small consistent gains compound over time, so daily practice beats rare bursts. ' +
  'Sleep first: sleep protects learning, because memories consolidate at night.';

describe('snapgraphTools for the Vercel AI SDK', () => {
  const live = liveSuite();

  it('are the four AI SDK tools, each with a zod input schema, a description and execute', () => {
    const tools = snapgraphTools({ client: live.client });
    assert.deepEqual(Object.keys(tools), ['remember', 'recall', 'searchKnowledge', 'crystallize']);
    for (const t of Object.values(tools)) {
      assert.equal(typeof t.execute, 'function');
      assert.ok((t.description ?? '').length > 20);
      assert.equal(typeof (t.inputSchema as { safeParse?: unknown }).safeParse, 'function', 'a zod schema');
    }
    const { remember, recall } = tools as unknown as Record<string, { inputSchema: any }>;
    assert.equal(remember!.inputSchema.safeParse({ content: 'x', speaker: 'Ana', session_id: 's1' }).success, true);
    assert.equal(remember!.inputSchema.safeParse({ content: '' }).success, false);
    assert.equal(recall!.inputSchema.safeParse({ query: 'x', limit: 10 }).success, true);
    assert.equal(recall!.inputSchema.safeParse({ query: 'x', limit: 51 }).success, false);
  });

  it('remember keeps a memory; recall finds it, answering compact JSON', async () => {
    const tools = snapgraphTools({ client: live.client });
    const kept = await exec<any, any>(tools.remember)({
      content: 'The user is allergic to peanuts',
      speaker: 'user',
      session_id: 'chat-9',
    });
    assert.match(kept.id, /^mem_/);
    assert.deepEqual(Object.keys(kept).sort(), ['id', 'memory_type', 'occurred_at', 'session_id', 'speaker']);
    const stored = await live.client.memories.get(kept.id);
    assert.equal(stored.content, 'The user is allergic to peanuts');
    assert.equal(stored.speaker, 'user');
    assert.equal(stored.session_id, 'chat-9');
    assert.equal(stored.brain_id, live.key.brainId);

    const found = await exec<any, any>(tools.recall)({ query: 'peanuts allergy' });
    assert.equal(found.count, 1);
    assert.deepEqual(found.results, [
      {
        id: kept.id,
        content: 'The user is allergic to peanuts',
        speaker: 'user',
        occurred_at: stored.occurred_at,
        session_id: 'chat-9',
        score: found.results[0].score,
        superseded_by: null,
      },
    ]);
    assert.ok(found.results[0].score > 0);
    assert.doesNotThrow(() => JSON.stringify(found));
  });

  it('recall cuts long memories and respects limit', async () => {
    const tools = snapgraphTools({ client: live.client });
    for (let i = 0; i < 3; i++) {
      await live.client.memories.create({ content: `Gardening note ${i}: ${'tomatoes need sun. '.repeat(80)}` });
    }
    const found = await exec<any, any>(tools.recall)({ query: 'tomatoes', limit: 2 });
    assert.equal(found.results.length, 2);
    assert.equal(found.count, 3);
    for (const r of found.results) {
      assert.equal(r.content.length, 1_000);
      assert.ok(r.content.endsWith('…'));
    }
  });

  it('searchKnowledge finds snapshots and the entries of ingested sources', async () => {
    const snap = await live.client.snapshots.create({
      name: 'Deliberate practice',
      core: 'Skill grows through focused practice at the edge of ability',
    });
    const source = await live.client.knowledge.ingest({
      source_type: 'document',
      title: 'Practice handbook',
      content: '# Deliberate practice\n\nDeliberate practice means focused repetition with feedback on weak spots.',
      create_snapshots: false,
    });
    const found = await exec<any, any>(snapgraphTools({ client: live.client }).searchKnowledge)({
      query: 'deliberate practice',
    });
    assert.equal(found.snapshots[0].id, snap.id);
    assert.deepEqual(Object.keys(found.snapshots[0]).sort(), ['core', 'id', 'name', 'score', 'type']);
    assert.ok(found.knowledge.length >= 1, JSON.stringify(found));
    assert.ok(found.knowledge.every((e: any) => e.source_id === source.data.source_id));
    assert.match(found.knowledge[0].id, /^ske_/);
  });

  it('crystallize turns text into linked snapshots and answers them', async () => {
    const result = await exec<any, any>(snapgraphTools({ client: live.client }).crystallize)({
      text: NOTES,
      source_type: 'chat',
    });
    assert.match(result.run_id, /^cry_/);
    assert.equal((await live.client.crystallize.getRun(result.run_id)).source_type, 'chat');
    assert.ok(result.count >= 1, JSON.stringify(result));
    assert.equal(result.snapshots.length, result.count);
    for (const s of result.snapshots) {
      const stored = await live.client.snapshots.get(s.id);
      assert.equal(stored.name, s.name);
      assert.equal(stored.source_type, 'chat');
    }
    assert.equal(typeof result.edges_made, 'number');
  });

  it('work in the brain they were made for, never another', async () => {
    const other = await live.client.brains.create({ name: 'Side project' });
    const theirs = snapgraphTools({ client: live.client, brainId: other.id });
    const kept = await exec<any, any>(theirs.remember)({ content: 'Launch the side project in June' });
    assert.equal((await live.client.memories.get(kept.id)).brain_id, other.id);
    assert.equal((await exec<any, any>(theirs.recall)({ query: 'side project launch' })).count, 1);
    const mine = snapgraphTools({ client: live.client });
    assert.equal((await exec<any, any>(mine.recall)({ query: 'side project launch' })).count, 0);
  });

  it('a refusal of the service is thrown as the client’s error', async () => {
    const tools = snapgraphTools({ client: live.client, brainId: 'brain_missing' });
    await assert.rejects(exec<any, any>(tools.recall)({ query: 'anything' }), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 404);
      return true;
    });
  });

  it('execute called by hand without the SDK’s options still works', async () => {
    const { remember } = snapgraphTools({ client: live.client });
    const kept = (await (remember.execute as unknown as (input: object) => Promise<{ id: string }>)({
      content: 'No options given',
    }))!;
    assert.equal((await live.client.memories.get(kept.id)).content, 'No options given');
  });

  it('the SDK’s abort signal stops a call', async () => {
    const { recall } = snapgraphTools({ client: live.client });
    const abort = new AbortController();
    abort.abort(new Error('stopped by the caller'));
    await assert.rejects(
      recall.execute!({ query: 'anything' }, { ...call(), abortSignal: abort.signal }) as Promise<unknown>,
      /stopped by the caller|abort/i,
    );
  });

  it('needs a client', () => {
    assert.throws(() => snapgraphTools({} as { client: SnapgraphClient }), /`client`/);
  });
});
