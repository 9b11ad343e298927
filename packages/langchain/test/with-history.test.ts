import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { SnapgraphChatMessageHistory } from '../src/index.js';
import { liveSuite } from './support.js';

/**
 * The history inside LangChain's own memory wrapper, with LangChain's fake chat model (the
 * framework's, answering fixed replies: no LLM): each turn reads the session's memories into
 * the prompt and keeps the new exchange as memories.
 */
describe('SnapgraphChatMessageHistory in RunnableWithMessageHistory', () => {
  const live = liveSuite();

  it('feeds earlier turns to the model and keeps each exchange in the session', async () => {
    const model = new FakeListChatModel({ responses: ['Hello Ana.', 'You are Ana.'] });
    const prompt = ChatPromptTemplate.fromMessages([new MessagesPlaceholder('history'), ['human', '{input}']]);
    const seen: string[][] = [];
    const chain = prompt.pipe((value) => {
      seen.push(value.toChatMessages().map((m) => `${m.type}: ${m.text}`));
      return model.invoke(value);
    });
    const chat = new RunnableWithMessageHistory({
      runnable: chain,
      getMessageHistory: (sessionId: string) => new SnapgraphChatMessageHistory({ client: live.client, sessionId }),
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: 'wrapped-1' } };

    assert.equal((await chat.invoke({ input: 'I am Ana' }, config)).text, 'Hello Ana.');
    assert.equal((await chat.invoke({ input: 'Who am I?' }, config)).text, 'You are Ana.');

    assert.deepEqual(seen[1], ['human: I am Ana', 'ai: Hello Ana.', 'human: Who am I?']);
    const stored = (await live.client.memories.list({ session_id: 'wrapped-1' })).data;
    assert.deepEqual(
      stored.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at)).map((m) => [m.speaker, m.content]),
      [
        ['human', 'I am Ana'],
        ['ai', 'Hello Ana.'],
        ['human', 'Who am I?'],
        ['ai', 'You are Ana.'],
      ],
    );
  });
});
