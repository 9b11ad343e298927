// Knowledge entries from a document (design §13.2): definitions, attributed quotes, named lists
// as frameworks, protocols and techniques, case studies, principles and concepts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractKnowledgeEntries, type ExtractedEntry } from '../../src/domain/extraction/index.js';
import { KNOWLEDGE_DOCUMENT } from './fixtures.js';

const context = { title: 'Management notes', domain: 'management' };
const entries = (text: string) => extractKnowledgeEntries(text, context);
const summary = (list: ExtractedEntry[]) => list.map((e) => [e.entry_type, e.title]);

describe('extractKnowledgeEntries', () => {
  it('reads a document into typed entries, in its order', () => {
    assert.deepEqual(summary(entries(KNOWLEDGE_DOCUMENT)), [
      ['definition', 'Opportunity cost'],
      ['definition', 'Compounding'],
      ['quote', '“What gets measured gets managed” — Peter Drucker'],
      ['quote', '“Culture eats strategy for breakfast” — Peter Drucker'],
      ['protocol', 'The GTD protocol'],
      ['framework', 'The Eisenhower framework'],
      ['technique', 'The Pomodoro technique'],
      ['case_study', 'Acme Corp cut its release cycle from three months to two days'],
      ['principle', 'Every user should own their data and be able to take it'],
      ['concept', 'Teams that write their decisions down repeat fewer mistakes over the years'],
    ]);
  });

  it('definitions: "X is defined as", "X means", "X refers to", "by X we mean", glossary lines', () => {
    const cases: [string, string][] = [
      ['Opportunity cost is defined as the value of the best alternative you give up.', 'Opportunity cost'],
      ['Compounding means that growth builds on earlier growth.', 'Compounding'],
      ['A "moat" refers to a lasting advantage that competitors cannot easily copy.', 'Moat'],
      ['By churn, we mean the share of customers who leave in a month.', 'Churn'],
      ['Runway: the number of months a company can operate before its cash runs out.', 'Runway'],
    ];
    for (const [text, term] of cases) {
      const [entry] = entries(text);
      assert.deepEqual([entry?.entry_type, entry?.title, entry?.content], ['definition', term, text], text);
    }
  });

  it('"this means" and other pronouns are not a term being defined', () => {
    const list = entries('This means that every release needs a written rollback plan before it ships.');
    assert.ok(
      list.every((e) => e.entry_type !== 'definition'),
      JSON.stringify(list),
    );
  });

  it('quotes need quoted words and an attribution; the content keeps the sentence', () => {
    const [quote] = entries('"Simplicity is prerequisite for reliability," wrote Edsger Dijkstra in 1975.');
    assert.equal(quote?.entry_type, 'quote');
    assert.equal(quote?.title, '“Simplicity is prerequisite for reliability” — Edsger Dijkstra');
    assert.equal(quote?.content, '"Simplicity is prerequisite for reliability," wrote Edsger Dijkstra in 1975.');
    const dash = entries('“Stay hungry, stay foolish.” — Stewart Brand');
    assert.deepEqual(summary(dash), [['quote', '“Stay hungry, stay foolish” — Stewart Brand']]);
    const unattributed = entries('People often say "move fast and break things" about startups that grow quickly.');
    assert.ok(
      unattributed.every((e) => e.entry_type !== 'quote'),
      JSON.stringify(unattributed),
    );
  });

  it('a named list keeps its items, numbered as written, under its name', () => {
    const [protocol] = entries(KNOWLEDGE_DOCUMENT.slice(KNOWLEDGE_DOCUMENT.indexOf('The GTD protocol:')));
    assert.equal(protocol?.entry_type, 'protocol');
    assert.equal(
      protocol?.content,
      [
        'The GTD protocol',
        '1. Capture everything that has your attention.',
        '2. Clarify what each item means and whether it is actionable.',
        '3. Organize the actions by context.',
        '4. Review the whole system weekly.',
      ].join('\n'),
    );
  });

  it('a list without a kind named is a technique when numbered, a framework when bulleted', () => {
    assert.deepEqual(
      summary(entries('Better standups:\n1. Say what you finished.\n2. Say what blocks you.')).map(([type]) => type),
      ['technique'],
    );
    assert.deepEqual(
      summary(entries('Healthy teams:\n- Clear goals shared by everyone.\n- Trust between members.')).map(
        ([type]) => type,
      ),
      ['framework'],
    );
  });

  it('case studies: "for example, in 2019 company X …"', () => {
    const list = entries(
      'For instance, in 2021 Globex moved its support team to four-day weeks and kept every customer.',
    );
    assert.deepEqual(summary(list), [
      ['case_study', 'Globex moved its support team to four-day weeks and kept every customer'],
    ]);
  });

  it('a text with nothing the rules pick out still gives one concept under the source title', () => {
    assert.deepEqual(entries('Cats nap.'), [
      { entry_type: 'concept', title: 'Management notes', content: 'Cats nap.' },
    ]);
    assert.deepEqual(entries('   '), []);
  });
});
