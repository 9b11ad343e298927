// Automatic edges with an LLM provider (design §9): the best candidates the rules find are
// classified by the model into any of the six types, with its reason as the label; those it
// calls unrelated are dropped; without an answer the rules' edges stand. The provider is a fake
// OpenAI server on loopback that answers the classification as a model would, by the texts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { linkingSettled } from '../helpers/linking.js';

const CLAIM = {
  name: 'Arctic fox winter coat',
  core: 'The arctic fox grows a white winter coat for camouflage in snow',
};
const STUDY = {
  name: 'Study of fox coats',
  core: 'A study found arctic fox winter coat turns white in snow: camouflage',
};
const LOOKALIKE = { name: 'Fox coat fashion', core: 'Arctic fox winter coat fashion in snow, white for camouflage' };
const REASON = 'the study is evidence for the claim';

/**
 * The model: a candidate named "Study…" supports the subject (and the subject named "Study…"
 * supports a candidate); "…fashion" is not related; anything else is left out of the answer.
 */
function classifier(body: any): string {
  const user: string = body.messages.find((m: { role: string }) => m.role === 'user').content;
  const subject = /^Subject: (.*)$/m.exec(user)?.[1] ?? '';
  const edges = [...user.matchAll(/^(\d+)\. (.*)$/gm)].flatMap(([, n, candidate]) => {
    const [number, text] = [Number(n), candidate as string];
    if (text.includes('fashion'))
      return [{ candidate: number, edge_type: 'none', direction: 'from_subject', label: 'x' }];
    if (text.startsWith('Study'))
      return [{ candidate: number, edge_type: 'supports', direction: 'to_subject', label: REASON }];
    if (subject.startsWith('Study')) {
      return [{ candidate: number, edge_type: 'supports', direction: 'from_subject', label: REASON }];
    }
    return [];
  });
  return JSON.stringify({ edges });
}

describe('automatic edges classified by an LLM', () => {
  let llm: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    llm = await startFakeOpenAI();
    api = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 1_000, contextTokens: 4096 },
    });
    key = await api.newKey();
  });
  after(async () => {
    await api.close();
    await llm.close();
  });
  beforeEach(() => {
    llm.calls.length = 0;
    llm.setDefault('chat', behave.answer({ content: classifier }));
  });

  const newBrain = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/brains', { key, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string };
  };
  const create = async (brainId: string, body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/snapshots', { key, body: { ...body, brain_id: brainId } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string };
  };
  const suggestions = async (id: string, query = '') => {
    const res = await api.request('GET', `/v1/snapshots/${id}/suggestions${query}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as {
      data: { source_id: string; target_id: string; edge_type: string; reason: string }[];
      count: number;
    };
  };

  it('suggestions: the model types and directs the edge, gives the reason, and drops what it calls unrelated', async () => {
    const brain = await newBrain({ name: 'typed' });
    const claim = await create(brain.id, CLAIM);
    const study = await create(brain.id, STUDY);
    const lookalike = await create(brain.id, LOOKALIKE);

    const got = await suggestions(claim.id);
    assert.deepEqual(
      got.data.map(({ source_id, target_id, edge_type, reason }) => ({ source_id, target_id, edge_type, reason })),
      [{ source_id: study.id, target_id: claim.id, edge_type: 'supports', reason: REASON }],
    );
    assert.equal(got.count, 1);
    assert.ok(!JSON.stringify(got).includes(lookalike.id), 'the model said the look-alike is unrelated');
    const [call] = llm.callsTo('chat');
    assert.equal(call?.body.response_format.json_schema.name, 'edge_types');
    assert.match(call?.body.messages.at(-1).content, /^Subject: Arctic fox winter coat: /m);
    assert.deepEqual((await suggestions(claim.id, '?edge_type=related_to')).data, []);
    assert.equal((await suggestions(claim.id, '?edge_type=supports')).data.length, 1);
  });

  it('an opted-in brain makes the typed edge, labelled with the reason', async () => {
    const brain = await newBrain({ name: 'typed auto', auto_link: true });
    const claim = await create(brain.id, CLAIM);
    const study = await create(brain.id, STUDY);
    await linkingSettled(api.request, key, brain.id);
    const edges = (await api.request('GET', `/v1/edges?brain_id=${brain.id}`, { key })).body.data;
    assert.equal(edges.length, 1, JSON.stringify(edges));
    assert.equal(edges[0].source_id, study.id);
    assert.equal(edges[0].target_id, claim.id);
    assert.equal(edges[0].edge_type, 'supports');
    assert.equal(edges[0].origin, 'auto');
    assert.equal(edges[0].label, `auto: ${REASON}`);
  });

  it('a provider that fails or answers nonsense leaves the rules to decide', async () => {
    const brain = await newBrain({ name: 'fallback' });
    const claim = await create(brain.id, CLAIM);
    const study = await create(brain.id, STUDY);
    for (const failure of [behave.status(500), behave.answer({ content: '{"edges": "no"}' })]) {
      llm.setDefault('chat', failure);
      const got = await suggestions(claim.id);
      assert.equal(got.data.length, 1, JSON.stringify(got));
      // The rules' own edge: the study's text names the claim.
      assert.equal(got.data[0]?.edge_type, 'elaborates');
      assert.equal(got.data[0]?.reason, '"Study of fox coats" names "Arctic fox winter coat"');
      assert.deepEqual(new Set([got.data[0]?.source_id, got.data[0]?.target_id]), new Set([claim.id, study.id]));
    }
  });
});
