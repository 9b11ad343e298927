import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { SnapgraphClient } from '@snapgraph/client';
import { SnapgraphChatMessageHistory } from '../src/index.js';
import { liveSuite } from './support.js';

/** The conversation the first test keeps, as [speaker or message type, text], in order. */
const CONVERSATION = [
  ['system', 'You are a helpful assistant'],
  ['human', 'I moved to Lyon last week'],
  ['ai', 'Noted: you live in Lyon now.'],
  ['human', 'And I work at the Part-Dieu office'],
  ['human', 'Thanks'],
  ['ai', 'You are welcome'],
];

describe('SnapgraphChatMessageHistory', () => {
  const live = liveSuite();
  const history = (sessionId: string, brainId?: string) =>
    new SnapgraphChatMessageHistory({ client: live.client, sessionId, ...(brainId ? { brainId } : {}) });
  const sessionMemories = async (session_id: string) => (await live.client.memories.list({ session_id })).data;

  it('keeps each message as a memory of the session, its speaker the message type, and reads them back in order', async () => {
    const chat = history('chat-1');
    assert.ok(chat instanceof BaseListChatMessageHistory);
    await chat.addMessages([
      new SystemMessage('You are a helpful assistant'),
      new HumanMessage('I moved to Lyon last week'),
      new AIMessage('Noted: you live in Lyon now.'),
    ]);
    await chat.addMessage(new HumanMessage('And I work at the Part-Dieu office'));
    await chat.addUserMessage('Thanks');
    await chat.addAIMessage('You are welcome');

    const stored = await sessionMemories('chat-1');
    assert.equal(stored.length, 6);
    assert.ok(stored.every((m) => m.session_id === 'chat-1' && m.brain_id === live.key.brainId));
    assert.deepEqual(
      stored.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at)).map((m) => [m.speaker, m.content]),
      CONVERSATION,
    );
    assert.equal(new Set(stored.map((m) => m.occurred_at)).size, 6, 'each message its own time, so order is kept');

    // A new history object on the same session (another process, a later request) reads them all.
    const messages = await history('chat-1').getMessages();
    assert.deepEqual(
      messages.map((m) => [m.type, m.text]),
      CONVERSATION,
    );
    assert.ok(messages[1] instanceof HumanMessage && messages[2] instanceof AIMessage);
    assert.deepEqual(
      messages.map((m) => m.id),
      stored.map((m) => m.id),
      'each message carries its memory id',
    );
  });

  it('orders by occurred_at, not by arrival, and reads a memory kept by other means as a named human message', async () => {
    await live.client.memories.create({
      content: 'Later turn',
      speaker: 'ai',
      session_id: 'imported',
      occurred_at: '2025-01-01T10:05:00Z',
    });
    await live.client.memories.create({
      content: 'Earlier turn by Ana',
      speaker: 'Ana',
      session_id: 'imported',
      occurred_at: '2025-01-01T10:00:00Z',
    });
    const messages = await history('imported').getMessages();
    assert.deepEqual(
      messages.map((m) => [m.type, m.name, m.text]),
      [
        ['human', 'Ana', 'Earlier turn by Ana'],
        ['ai', undefined, 'Later turn'],
      ],
    );
  });

  it('reads every page of a long conversation', async () => {
    const chat = history('long');
    await chat.addMessages(Array.from({ length: 105 }, (_, i) => new HumanMessage(`turn ${i}`)));
    const messages = await chat.getMessages();
    assert.equal(messages.length, 105);
    assert.deepEqual(
      messages.map((m) => m.text),
      Array.from({ length: 105 }, (_, i) => `turn ${i}`),
    );
  });

  it('clear deletes that session’s memories only', async () => {
    const keep = await live.client.memories.create({ content: 'Outside any session' });
    await history('other').addMessage(new HumanMessage('Another conversation'));
    const chat = history('to-clear');
    await chat.addMessages([new HumanMessage('first'), new AIMessage('second')]);
    await chat.clear();
    assert.deepEqual(await chat.getMessages(), []);
    assert.deepEqual(await sessionMemories('to-clear'), []);
    assert.equal((await sessionMemories('other')).length, 1);
    assert.equal((await live.client.memories.get(keep.id)).content, 'Outside any session');
    await chat.clear(); // nothing left: still fine
  });

  it('keeps the session in the brain it is given', async () => {
    const other = await live.client.brains.create({ name: 'Support chats' });
    await history('brain-chat', other.id).addMessage(new HumanMessage('In the support brain'));
    assert.deepEqual(await history('brain-chat').getMessages(), [], 'not in the key’s brain');
    const there = await history('brain-chat', other.id).getMessages();
    assert.deepEqual(
      there.map((m) => m.text),
      ['In the support brain'],
    );
    assert.equal((await live.client.memories.get(there[0]!.id!)).brain_id, other.id);
  });

  it('refuses a message that cannot be a memory before writing any of the batch', async () => {
    const chat = history('refused');
    await assert.rejects(
      chat.addMessages([new HumanMessage('fine'), new ToolMessage({ content: '42', tool_call_id: 'call_1' })]),
      /keeps human, AI and system messages as memories; a tool message cannot be kept/,
    );
    await assert.rejects(
      chat.addMessages([
        new HumanMessage('fine'),
        new AIMessage({ content: '', tool_calls: [{ name: 'x', args: {}, id: 'c1' }] }),
      ]),
      /has no text/,
    );
    await assert.rejects(chat.addMessages([new HumanMessage('x'.repeat(10_001))]), RangeError);
    assert.deepEqual(await sessionMemories('refused'), []);
  });

  it('deletes what a batch had written when the service cannot take the rest', async () => {
    let posts = 0;
    const failingThird: typeof fetch = (input, init) => {
      if (init?.method === 'POST' && String(input).endsWith('/v1/memories') && ++posts === 3) {
        return Promise.resolve(
          new Response(JSON.stringify({ error: { code: 'INTERNAL', message: 'boom' } }), { status: 500 }),
        );
      }
      return fetch(input, init);
    };
    const client = new SnapgraphClient({ baseUrl: live.server.baseUrl, apiKey: live.key.key, fetch: failingThird });
    const chat = new SnapgraphChatMessageHistory({ client, sessionId: 'half' });
    await assert.rejects(chat.addMessages(['one', 'two', 'three', 'four'].map((t) => new HumanMessage(t))), {
      status: 500,
    });
    assert.equal(posts, 3);
    assert.deepEqual(await sessionMemories('half'), []);
  });

  it('a missing client or a bad session id fails where the history is built', () => {
    assert.throws(() => new SnapgraphChatMessageHistory({ client: live.client, sessionId: '' }), /`sessionId`/);
    assert.throws(
      () => new SnapgraphChatMessageHistory({ client: live.client, sessionId: 's'.repeat(201) }),
      TypeError,
    );
    assert.throws(() => new SnapgraphChatMessageHistory({ sessionId: 'x' } as never), /`client`/);
  });
});
