// chunkText and estimateTokens: chunks never exceed the budget, never lose or reorder text,
// and cut inside a sentence only when the sentence alone is over the budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkText, estimateTokens } from '../../src/domain/extraction/index.js';
import { KNOWLEDGE_DOCUMENT, TRANSCRIPT, generatedText, seededRandom } from './fixtures.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('estimateTokens', () => {
  it('is about four characters or three quarters of a word per token, whichever is more', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcdefghi'), 3);
    assert.equal(estimateTokens('a b c'), 4);
    assert.equal(estimateTokens('Compounding rewards patience.'), 8);
  });

  it('grows with the text: a longer text never costs fewer tokens', () => {
    const text = generatedText(7);
    let previous = 0;
    for (let end = 0; end <= text.length; end += 97) {
      const tokens = estimateTokens(text.slice(0, end));
      assert.ok(tokens >= previous);
      previous = tokens;
    }
  });
});

describe('chunkText', () => {
  it('gives a text that fits back whole, as one chunk, and nothing for empty text', () => {
    assert.deepEqual(chunkText('  Small teams ship faster.  ', 100), ['Small teams ship faster.']);
    assert.deepEqual(chunkText(' \n\n ', 100), []);
  });

  it('never exceeds the budget and never drops or reorders text (property over texts and budgets)', () => {
    const random = seededRandom(42);
    const texts = [KNOWLEDGE_DOCUMENT, TRANSCRIPT, ...Array.from({ length: 25 }, (_, i) => generatedText(100 + i, 20))];
    for (const text of texts) {
      for (let round = 0; round < 4; round++) {
        const budget = 1 + Math.floor(random() * 300);
        const chunks = chunkText(text, budget);
        for (const chunk of chunks) {
          assert.ok(estimateTokens(chunk) <= budget, `${estimateTokens(chunk)} > ${budget}: ${chunk.slice(0, 80)}`);
          assert.equal(chunk, chunk.trim());
          assert.notEqual(chunk, '');
        }
        // Only white space may differ (a word longer than the budget is cut into slices).
        assert.equal(chunks.join('').replace(/\s+/g, ''), text.replace(/\s+/g, ''), `budget ${budget}`);
      }
    }
  });

  it('cuts between sentences, keeping each sentence whole when it fits', () => {
    const sentences = [
      'Small teams ship faster than large committees.',
      'Every extra person adds coordination cost.',
      'Trust is built in small moments.',
      'Feedback loops turn outputs into inputs.',
    ];
    const chunks = chunkText(sentences.join(' '), 25);
    assert.ok(chunks.length > 1);
    for (const chunk of chunks) {
      const inside = sentences.filter((s) => chunk.includes(s));
      assert.equal(inside.join(' '), chunk, `a chunk of whole sentences: ${chunk}`);
    }
  });

  it('keeps paragraphs apart with a blank line and whole when they fit', () => {
    const text = 'First paragraph about teams.\n\nSecond paragraph about trust.\n\nThird paragraph about loops.';
    assert.deepEqual(chunkText(text, 16), [
      'First paragraph about teams.\n\nSecond paragraph about trust.',
      'Third paragraph about loops.',
    ]);
  });

  it('cuts a sentence longer than the budget between words, and a word longer than it in slices', () => {
    const sentence = `${'word '.repeat(200).trim()}.`;
    const chunks = chunkText(sentence, 20);
    assert.ok(chunks.length > 1);
    for (const chunk of chunks) assert.ok(estimateTokens(chunk) <= 20);
    assert.deepEqual(words(chunks.join(' ')), words(sentence));
    const long = 'x'.repeat(1000);
    const slices = chunkText(long, 10);
    assert.equal(slices.join(''), long);
    for (const slice of slices) assert.ok(estimateTokens(slice) <= 10);
  });

  it('counts Chinese, Japanese and Korean characters as a token each, and keeps such text within the budget', () => {
    assert.equal(estimateTokens('小团队更快'), 5);
    const text = '这是一个测试。我们相信小团队更快。'.repeat(40);
    for (const budget of [1, 7, 30]) {
      const chunks = chunkText(text, budget);
      for (const chunk of chunks) assert.ok(estimateTokens(chunk) <= budget, `${estimateTokens(chunk)} > ${budget}`);
      assert.equal(chunks.join('').replace(/\s+/g, ''), text);
    }
  });

  it('refuses a budget below one token', () => {
    assert.throws(() => chunkText('text', 0), RangeError);
    assert.throws(() => chunkText('text', Number.NaN), RangeError);
  });
});
