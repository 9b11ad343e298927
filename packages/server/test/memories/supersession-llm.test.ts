// Facts that change, decided by the LLM when one is configured (design §6.1): the model answers
// add / update / keep for the earlier memories on the newcomer's subject; a failing provider
// leaves the decision to the built-in rules and the memory is stored all the same.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

describe('supersession through the LLM', () => {
  let llm: FakeOpenAI;
  let api: TestApi;
  before(async () => {
    llm = await startFakeOpenAI();
    api = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 1_000, contextTokens: 4096 },
    });
  });
  after(async () => {
    await api.close();
    await llm.close();
  });
  beforeEach(() => {
    llm.calls.length = 0;
  });

  const decisions = (action: string) =>
    behave.answer({ content: JSON.stringify({ decisions: [{ memory: 1, action }] }) });
  const remember = async (key: TestKey, content: string, occurred_at: string) => {
    const res = await api.request('POST', '/v1/memories', { key, body: { content, occurred_at } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data;
  };
  const supersededBy = async (key: TestKey, id: string) =>
    (await api.request('GET', `/v1/memories/${id}`, { key })).body.data.superseded_by;

  it('"update": the newer memory replaces the one the model names, though the rules see no changed value', async () => {
    const key = await api.newKey();
    const old = await remember(key, 'Our CI runs on Jenkins.', '2025-01-01T00:00:00Z');
    llm.script('chat', decisions('update'));
    const replacement = await remember(key, 'Our CI runs on hosted runners these days.', '2025-02-01T00:00:00Z');
    assert.equal(await supersededBy(key, old.id), replacement.id);
    const asked = llm.calls.filter((c) => c.path === '/v1/chat/completions');
    assert.equal(asked.length, 1, 'one call for the one memory with candidates');
    const prompt = JSON.stringify(asked[0]!.body.messages);
    assert.ok(prompt.includes('Our CI runs on Jenkins.') && prompt.includes('hosted runners'), prompt);
  });

  it('"keep" and "add": nothing is superseded, though the rules would have', async () => {
    for (const action of ['keep', 'add']) {
      const key = await api.newKey(); // an empty brain: the first memory asks the model nothing
      const old = await remember(key, `The ${action} review budget is 10 hours.`, '2025-01-01T00:00:00Z');
      llm.script('chat', decisions(action));
      await remember(key, `The ${action} review budget is 12 hours.`, '2025-02-01T00:00:00Z');
      assert.equal(await supersededBy(key, old.id), null, action);
    }
  });

  it('a failing provider: the rules decide, and the memory is stored', async () => {
    const key = await api.newKey();
    const old = await remember(key, 'The support rota has 4 people.', '2025-01-01T00:00:00Z');
    llm.setDefault('chat', behave.status(500));
    const replacement = await remember(key, 'The support rota has 6 people.', '2025-02-01T00:00:00Z');
    llm.setDefault('chat', behave.ok());
    assert.ok(
      llm.calls.some((c) => c.path === '/v1/chat/completions'),
      'the model was asked',
    );
    assert.equal(await supersededBy(key, old.id), replacement.id);
  });
});
