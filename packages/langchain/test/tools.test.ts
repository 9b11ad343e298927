import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { StructuredTool, ToolInputParsingException } from '@langchain/core/tools';
import { snapgraphTools } from '../src/index.js';
import { liveSuite } from './support.js';

describe('snapgraphTools for a LangChain agent', () => {
  const live = liveSuite();

  it('are LangChain structured tools with JSON schemas a model can call', () => {
    const tools = snapgraphTools({ client: live.client });
    assert.deepEqual(
      tools.map((t) => t.name),
      ['snapgraph_remember', 'snapgraph_recall', 'snapgraph_search'],
    );
    for (const t of tools) {
      assert.ok(t instanceof StructuredTool);
      assert.ok(t.description.length > 20);
    }
  });

  it('remember keeps a memory and recall finds it, answering compact JSON', async () => {
    const [remember, recall] = snapgraphTools({ client: live.client });
    const kept = JSON.parse(
      await remember.invoke({ content: 'The deploy freeze starts on Friday', speaker: 'Ops', session_id: 'ops-1' }),
    );
    assert.match(kept.id, /^mem_/);
    assert.equal(kept.speaker, 'Ops');
    const stored = await live.client.memories.get(kept.id);
    assert.equal(stored.content, 'The deploy freeze starts on Friday');
    assert.equal(stored.session_id, 'ops-1');

    const found = JSON.parse(await recall.invoke({ query: 'deploy freeze' }));
    assert.equal(found.count, 1);
    assert.deepEqual(Object.keys(found.results[0]).sort(), [
      'content',
      'id',
      'occurred_at',
      'score',
      'session_id',
      'speaker',
      'superseded_by',
    ]);
    assert.equal(found.results[0].id, kept.id);
    assert.equal(found.results[0].content, 'The deploy freeze starts on Friday');
  });

  it('called as an agent calls them (a tool call), they answer a ToolMessage', async () => {
    await live.client.snapshots.create({ name: 'Compounding', core: 'Small consistent gains compound over time' });
    const search = snapgraphTools({ client: live.client })[2];
    const message = await search.invoke({
      type: 'tool_call',
      id: 'call_7',
      name: 'snapgraph_search',
      args: { query: 'compounding', limit: 3 },
    });
    assert.ok(message instanceof ToolMessage);
    assert.equal(message.tool_call_id, 'call_7');
    const answer = JSON.parse(message.text);
    assert.equal(answer.results[0].name, 'Compounding');
    assert.match(answer.results[0].id, /^snap_/);
    assert.equal(typeof answer.results[0].score, 'number');
  });

  it('work in the brain they were made for, never another', async () => {
    const other = await live.client.brains.create({ name: 'Team' });
    const [remember, recall] = snapgraphTools({ client: live.client, brainId: other.id });
    const kept = JSON.parse(await remember.invoke({ content: 'Team retro every second Thursday' }));
    assert.equal((await live.client.memories.get(kept.id)).brain_id, other.id);
    assert.equal(JSON.parse(await recall.invoke({ query: 'retro' })).count, 1);
    const [, recallMine] = snapgraphTools({ client: live.client });
    assert.equal(JSON.parse(await recallMine.invoke({ query: 'retro' })).count, 0);
  });

  it('arguments outside the schema are refused before the service is called', async () => {
    const [remember, recall] = snapgraphTools({ client: live.client });
    await assert.rejects(remember.invoke({ content: '' }), ToolInputParsingException);
    await assert.rejects(recall.invoke({ query: 'x', limit: 500 }), ToolInputParsingException);
  });
});
