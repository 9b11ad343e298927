import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { insightsAnswer } from '../helpers/fake-insights.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const insightsOf = insightsAnswer(['Testing', 'testing']);

const TEXT =
  'Always write the failing test before the fix. Review every pull request within a day. ' +
  'Deploy small changes often, never on a Friday evening.';

describe('POST /v1/crystallize with an LLM provider', () => {
  let llm: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    llm = await startFakeOpenAI();
    // LLM_TIMEOUT_MS well above what the fake takes, even on a loaded CI machine (a chunk asked
    // again once took past 1 s there and was answered 503); the test of the timeout delays more.
    api = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 5_000, contextTokens: 512 },
    });
    key = await api.newKey();
  });
  after(async () => {
    await api.close();
    await llm.close();
  });
  beforeEach(() => {
    llm.calls.length = 0;
    llm.setDefault('chat', behave.answer({ content: insightsOf }));
  });

  const newBrain = async () => {
    const res = await api.request('POST', '/v1/brains', { key, body: { name: 'llm' } });
    return res.body.data.id as string;
  };
  const snapshotCount = async (brainId: string) =>
    (await api.request('GET', `/v1/brains/${brainId}`, { key })).body.data.snapshot_count as number;

  it('asks for the nested json_schema at temperature 0 and makes the snapshots it answers', async () => {
    const brainId = await newBrain();
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const calls = llm.callsTo('chat');
    assert.equal(calls.length, 1);
    const sent = calls[0]!;
    assert.equal(sent.headers.authorization, 'Bearer sk-test');
    assert.equal(sent.body.model, 'fake-model');
    assert.equal(sent.body.temperature, 0);
    assert.equal(sent.body.response_format.type, 'json_schema');
    assert.equal(sent.body.response_format.json_schema.name, 'insights');
    assert.equal(sent.body.response_format.json_schema.strict, true);
    assert.equal(sent.body.response_format.json_schema.schema.type, 'object');

    assert.deepEqual(
      res.body.data.snapshots.map((s: { core: string }) => s.core),
      [
        'Always write the failing test before the fix.',
        'Review every pull request within a day.',
        'Deploy small changes often, never on a Friday evening.',
      ],
    );
    for (const s of res.body.data.snapshots) {
      assert.equal(s.type, 'Rule');
      assert.equal(s.confidence, 0.9);
      assert.deepEqual(s.tags, ['testing'], 'tags are cleaned: lower case, no duplicates');
    }
    const { usage } = res.body;
    assert.equal(usage.model, 'fake-model');
    assert.ok(usage.totalTokensIn > 0 && usage.totalTokensOut > 0);
    assert.equal(usage.totalTokens, usage.totalTokensIn + usage.totalTokensOut);
    assert.deepEqual(usage.phases.extract, { tokensIn: usage.totalTokensIn, tokensOut: usage.totalTokensOut });
  });

  it('sends an invalid answer back once with what was wrong, and uses the repaired one', async () => {
    llm.script('chat', behave.answer({ content: 'Sure! Here are the insights: {"insights": [{"name": 1}]}' }));
    const brainId = await newBrain();
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const calls = llm.callsTo('chat');
    assert.equal(calls.length, 2);
    const repair = calls[1]!.body.messages;
    assert.equal(repair.at(-2).role, 'assistant');
    assert.match(repair.at(-1).content, /not valid/);
    assert.equal(res.body.data.count, 3);
  });

  it('reads an answer wrapped in a ```json fence, as local models send it', async () => {
    llm.script('chat', behave.answer({ content: (body) => `\`\`\`json\n${insightsOf(body)}\n\`\`\`` }));
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: await newBrain() } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(llm.callsTo('chat').length, 1);
    assert.equal(res.body.data.count, 3);
  });

  it('answers 502 PROVIDER_ERROR after two invalid answers, and writes nothing', async () => {
    llm.script('chat', behave.answer({ content: 'not json' }), behave.answer({ content: '{"insights": "none"}' }));
    const brainId = await newBrain();
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'PROVIDER_ERROR');
    assert.equal(await snapshotCount(brainId), 0);
  });

  it('answers 503 PROVIDER_UNAVAILABLE with the Retry-After the provider gave, and writes nothing', async () => {
    llm.script('chat', behave.status(429, { retryAfter: 7 }));
    const brainId = await newBrain();
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'PROVIDER_UNAVAILABLE');
    assert.equal(res.headers['retry-after'], '7');
    assert.equal(res.body.retry_after, 7);
    assert.equal(await snapshotCount(brainId), 0);

    const ready = await api.request('GET', '/readyz');
    assert.equal(ready.body.checks.llm, 'unavailable');
    assert.equal(ready.body.status, 'degraded');
    const recovered = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(recovered.status, 201);
    assert.equal((await api.request('GET', '/readyz')).body.checks.llm, 'ok');
  });

  it('/readyz reports a provider that does not answer as unavailable from the start, without a token spent', async () => {
    // The running fake answered the start-up probe: reachable, and no chat call was made for it.
    assert.equal((await api.request('GET', '/readyz')).body.checks.llm, 'ok');
    const gone = await startFakeOpenAI();
    await gone.close(); // nothing listens there now
    const starting = await startTestApi({
      llm: { baseUrl: gone.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 1_000, contextTokens: 512 },
    });
    try {
      const ready = await starting.request('GET', '/readyz');
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, 'degraded');
      assert.equal(ready.body.checks.llm, 'unavailable');
    } finally {
      await starting.close();
    }
  });

  it('answers 503 when the provider does not answer in LLM_TIMEOUT_MS, and 502 when it refuses', async () => {
    const brainId = await newBrain();
    llm.script('chat', behave.delay(8_000));
    const slow = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(slow.status, 503, JSON.stringify(slow.body));
    assert.equal(slow.headers['retry-after'], undefined);
    llm.script('chat', behave.status(400, { message: 'model not found' }));
    const refused = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    assert.doesNotMatch(JSON.stringify(refused.body), /model not found/, "the provider's words stay in the logs");
    assert.equal(await snapshotCount(brainId), 0);
  });

  it('sends back an answer with a type outside the enumeration, like any invalid answer', async () => {
    const wrongType = (body: any) => insightsOf(body).replaceAll('"Rule"', '"Opinion"');
    llm.script('chat', behave.answer({ content: wrongType }), behave.answer({ content: wrongType }));
    const brainId = await newBrain();
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.match(llm.callsTo('chat')[1]!.body.messages.at(-1).content, /type/);
    assert.equal(await snapshotCount(brainId), 0);
  });

  it('answers 503 for a 500 and for a connection reset, and writes nothing', async () => {
    const brainId = await newBrain();
    for (const failure of [behave.status(500), behave.reset(), behave.cutOff()]) {
      llm.script('chat', failure);
      const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
      assert.equal(res.status, 503, `${failure.kind}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'PROVIDER_UNAVAILABLE');
    }
    assert.equal(await snapshotCount(brainId), 0);
  });

  it('never uses an answer cut off at the output limit: the chunk is split and asked again', async () => {
    llm.script('chat', behave.answer({ content: '{"insights": [', finishReason: 'length' }));
    const brainId = await newBrain();
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text: TEXT, brain_id: brainId } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const calls = llm.callsTo('chat');
    assert.ok(calls.length >= 3, `split in two at least: ${calls.length} calls`);
    const retried = calls.slice(1).map((call) => call.body.messages.at(-1).content as string);
    assert.equal(retried.join(' '), TEXT.trim(), 'the halves hold the whole text, in order');
    assert.equal(res.body.data.count, 3);
  });

  it('splits a long text to fit LLM_CONTEXT_TOKENS, losing nothing', async () => {
    const sentences = Array.from(
      { length: 60 },
      // Distinct words in each, so that no two are near-duplicates to be merged.
      (_, i) => `Topic${i} requires practice${i} and patience${i} across season${i} of craft${i}.`,
    );
    const text = sentences.join(' ');
    const brainId = await newBrain();
    const res = await api.request('POST', '/v1/crystallize', {
      key,
      body: { text, brain_id: brainId, auto_link: false },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const chunks = llm.callsTo('chat').map((call) => call.body.messages.at(-1).content as string);
    assert.ok(chunks.length > 1, 'more than one chunk');
    for (const chunk of chunks) assert.ok(chunk.length <= 512 * 4, `a chunk of ${chunk.length} characters`);
    // Chunks are asked a few at a time, so they arrive in any order; each sentence is in one.
    const sent = chunks.flatMap((chunk) => chunk.split(/(?<=\.) /));
    assert.deepEqual([...sent].sort(), [...sentences].sort(), 'every sentence once');
    assert.deepEqual(
      res.body.data.snapshots.map((s: { core: string }) => s.core),
      sentences,
      'the snapshots keep the order of the text',
    );
  });

  it('links the new snapshots among themselves', async () => {
    const text =
      'The arctic fox grows a thick white winter coat for camouflage. ' +
      'The thick white winter coat of the arctic fox also keeps it warm. Bake bread with sourdough starter.';
    const res = await api.request('POST', '/v1/crystallize', { key, body: { text, brain_id: await newBrain() } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const [fox, foxToo] = res.body.data.snapshots as { id: string }[];
    assert.ok(
      res.body.data.edges.some(
        (e: { source_id: string; target_id: string; origin: string }) =>
          e.origin === 'auto' && [e.source_id, e.target_id].sort().join() === [fox!.id, foxToo!.id].sort().join(),
      ),
      JSON.stringify(res.body.data.edges),
    );
  });
});
