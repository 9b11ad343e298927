// Memories from text (design §12 types, for POST /v1/ingest with extract_memories): one per
// statement, a story kept whole, filler dropped, the type read from cue phrases.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMemories } from '../../src/domain/extraction/index.js';
import { MEMORY_TEXT, PODCAST, TRANSCRIPT } from './fixtures.js';

const typeOf = (text: string) => {
  const memories = extractMemories(text);
  assert.equal(memories.length, 1, JSON.stringify(memories));
  return memories[0]!.memory_type;
};

describe('extractMemories', () => {
  it('reads a conversation into typed memories, dropping filler, keeping a story whole', () => {
    assert.deepEqual(
      extractMemories(MEMORY_TEXT).map((m) => [m.memory_type, m.content]),
      [
        ['event', 'In March 2023 we launched the new billing system for all customers.'],
        ['decision', 'We decided to move every service to PostgreSQL after the outage.'],
        ['preference', 'I prefer small pull requests over big ones because they are easier to review.'],
        ['insight', 'I realized that most of our bugs come from unclear requirements.'],
        [
          'story',
          'When I was a junior developer, I broke production twice. My lead stayed calm both times and showed me how to fix it.',
        ],
        ['fact', 'The main database holds about two million customer records.'],
      ],
    );
  });

  it('decision: "we decided", "we agreed", "we will go with"', () => {
    assert.equal(typeOf('We agreed to freeze the API until the next major version.'), 'decision');
    assert.equal(typeOf("After the review we're going with the managed queue service."), 'decision');
  });

  it('preference: "I prefer", "I would rather", "my favourite"', () => {
    assert.equal(typeOf('I would rather pair on a hard problem than review it afterwards.'), 'preference');
    assert.equal(typeOf('My favourite editor for long documents is still plain Vim.'), 'preference');
  });

  it('event: a date or a past event', () => {
    assert.equal(typeOf('On 12 June the whole team met in Lisbon for the offsite.'), 'event');
    assert.equal(typeOf('Last week the payment provider went down for three hours.'), 'event');
    assert.equal(typeOf('The company raised its first round from two angel investors.'), 'event');
    assert.equal(typeOf('Our office has room for forty people and a small kitchen.'), 'fact');
  });

  it('framework: a list under its header', () => {
    const [memory] = extractMemories(
      'Our incident checklist:\n1. Declare the incident.\n2. Name a commander.\n3. Write the timeline.',
    );
    assert.equal(memory?.memory_type, 'framework');
    assert.equal(
      memory?.content,
      'Our incident checklist\n- Declare the incident.\n- Name a commander.\n- Write the timeline.',
    );
  });

  it('fact is the default, and tags are key nouns', () => {
    const [memory] = extractMemories('The warehouse in Rotterdam ships about four thousand parcels a day.');
    assert.equal(memory?.memory_type, 'fact');
    assert.ok(memory?.tags.includes('warehouse'), JSON.stringify(memory?.tags));
  });

  it('greetings, hesitations and empty questions give no memory', () => {
    const contents = extractMemories(TRANSCRIPT).map((m) => m.content);
    assert.deepEqual(contents, [
      'I think that the best hiring signal is how a candidate explains a past mistake.',
      'We learned that paying interns fairly doubles the number of strong applicants we get every year.',
    ]);
  });

  it('a first … then … finally sequence is one framework memory; a one-word follow-up joins the sentence before', () => {
    const memories = extractMemories(PODCAST);
    assert.ok(
      memories.some(
        (m) =>
          m.memory_type === 'framework' &&
          m.content ===
            'First, we list the three behaviours we reward. Then we list the behaviours we will not tolerate. Finally, every candidate reads it before the interview.',
      ),
      JSON.stringify(memories, null, 2),
    );
    assert.ok(
      memories.some((m) => m.content.endsWith('control of the board. That is non-negotiable for me.')),
      JSON.stringify(memories, null, 2),
    );
    assert.ok(
      memories.every((m) => !/guest is Maria|Thank you|sounds painful/.test(m.content)),
      JSON.stringify(memories),
    );
  });
});
