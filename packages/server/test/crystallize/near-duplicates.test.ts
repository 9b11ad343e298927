import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SimilarSets } from '../../src/domain/crystallize/similar-sets.js';
import { NEAR_DUPLICATE } from '../../src/domain/crystallize/synthesize.js';
import { wordCosine } from '../../src/domain/linking/resemblance.js';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { insightsAnswer } from '../helpers/fake-insights.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { prng } from '../helpers/prng.js';

/** A made-up word of its own for each number: no stop word, nothing a stemmer changes. */
const word = (n: number) => `w${n.toString(36)}q`;

describe('merging near-duplicate insights (issue 34: not every pair)', () => {
  it('the index of rare words finds exactly what comparing with every kept set finds', () => {
    const next = prng(34);
    // Sets over a small vocabulary (many shared words), a third of them restatements of an
    // earlier one with a few words changed, added or dropped: cosines on both sides of the threshold.
    const sets: Set<string>[] = [];
    for (let i = 0; i < 1500; i++) {
      const base = sets.length > 0 && next() < 0.35 ? sets[Math.floor(next() * sets.length)] : undefined;
      const words = new Set(base ?? []);
      if (base) {
        for (const w of [...words]) if (next() < 0.15) words.delete(w);
        for (let k = Math.floor(next() * 3); k > 0; k--) words.add(word(Math.floor(next() * 400)));
      } else {
        const size = 1 + Math.floor(next() * 30);
        while (words.size < size) words.add(word(Math.floor(400 * next() ** 2)));
      }
      sets.push(words);
    }

    for (const threshold of [NEAR_DUPLICATE, 0.5]) {
      const index = new SimilarSets(sets, threshold);
      const kept: Set<string>[] = [];
      let merged = 0;
      for (const set of sets) {
        const expected = kept.findIndex((k) => wordCosine(k, set) >= threshold);
        assert.equal(index.firstSimilar(set), expected, `threshold ${threshold}, set ${kept.length + merged}`);
        if (expected === -1) {
          index.add(set);
          kept.push(set);
        } else merged++;
      }
      assert.ok(merged > 200 && kept.length > 200, `both answers were checked: ${merged} merged, ${kept.length} kept`);
    }
  });

  describe('POST /v1/crystallize', () => {
    let llm: FakeOpenAI;
    let api: TestApi;
    let key: TestKey;
    before(async () => {
      llm = await startFakeOpenAI();
      // One insight per sentence of the text (fake-insights.ts).
      llm.setDefault('chat', behave.answer({ content: insightsAnswer(['notes']) }));
      api = await startTestApi({
        llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 5_000, contextTokens: 64_000 },
      });
      key = await api.newKey();
    });
    after(async () => {
      await api.close();
      await llm.close();
    });

    it('merges each restated insight into the first statement of it, across a long text', async () => {
      // 300 statements, each of twelve words of its own; then each again with one word changed
      // (cosine 11/12, above 0.8), in reverse order, far from the first.
      const statements = Array.from(
        { length: 300 },
        (_, i) => `${Array.from({ length: 12 }, (_, k) => word(i * 12 + k)).join(' ')}.`,
      );
      const restated = statements.map((s, i) => s.replace(word(i * 12 + 11), word(100_000 + i))).reverse();
      const res = await api.request('POST', '/v1/crystallize', {
        key,
        body: { text: [...statements, ...restated].join(' '), auto_link: false },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.meta.rawInsightCount, 600);
      assert.deepEqual(
        res.body.data.snapshots.map((s: { core: string }) => s.core),
        statements,
        'the first statement of each, once',
      );
    });
  });
});
