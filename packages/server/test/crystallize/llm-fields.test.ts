// With an LLM configured, crystallize asks for the same fields the built-in extractor fills
// (core, proof, challenge, story, method, steps) and keeps what the model said. The fake
// provider answers from an annotation of the text, as bench/crystallize-quality.mjs does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const TEXT =
  'Cities should replace on-street parking with bike lanes. Most trips in town are shorter than five kilometres. ' +
  'Shop owners often claim that they would lose customers. But cyclists visit shops more often.';
const ANNOTATION = {
  claim: 'Cities should replace on-street parking with bike lanes.',
  opp: 'Shop owners often claim that they would lose customers.',
  pro: 'Most trips in town are shorter than five kilometres. But cyclists visit shops more often.',
};

describe('crystallize with an LLM: the fields the model gives are kept', () => {
  let llm: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    llm = await startFakeOpenAI();
    api = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 2_000, contextTokens: 2_048 },
    });
    key = await api.newKey();
    llm.setDefault(
      'chat',
      behave.answer({
        content: () =>
          JSON.stringify({
            insights: [
              {
                name: 'Bike lanes instead of parking',
                core: ANNOTATION.claim,
                type: 'Rule',
                one_liner: ANNOTATION.claim,
                story: null,
                method: null,
                steps: null,
                challenge: ANNOTATION.opp,
                proof: ANNOTATION.pro,
                tags: ['cities', 'cycling'],
                confidence: 0.8,
                significance_score: 0.9,
              },
            ],
          }),
      }),
    );
  });
  after(async () => {
    await api.close();
    await llm.close();
  });

  it('asks for proof and challenge in the schema, and stores core, challenge and proof as answered', async () => {
    const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'llm fields' } });
    const res = await api.request('POST', '/v1/crystallize', {
      key,
      body: { text: TEXT, brain_id: brain.body.data.id },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const schema = llm.callsTo('chat')[0]!.body.response_format.json_schema.schema;
    const item = schema.properties.insights.items;
    for (const field of ['core', 'proof', 'challenge', 'story', 'method', 'steps']) {
      assert.ok(item.required.includes(field), field);
    }
    const [snapshot] = res.body.data.snapshots;
    assert.equal(res.body.usage.model, 'fake-model');
    assert.equal(snapshot.core, ANNOTATION.claim);
    assert.equal(snapshot.challenge, ANNOTATION.opp);
    assert.equal(snapshot.proof, ANNOTATION.pro);
    assert.equal(snapshot.type, 'Rule');
    assert.deepEqual(snapshot.tags, ['cities', 'cycling']);
  });
});
