// The built-in extractor's snapshots (design §10.4, §11): types from cue phrases, the fields a
// text gives (story, method, steps, challenge), grouping by idea, names, tags and no filler.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractSnapshots } from '../../src/domain/extraction/index.js';
import {
  CHALLENGE_TEXT,
  FILLER_PATTERN,
  METHOD_TEXT,
  SEQUENCE_PROSE,
  STEPS_LIST,
  STORY_TEXT,
  TRANSCRIPT,
  TYPE_FIXTURES,
  PODCAST,
} from './fixtures.js';

function only(text: string) {
  const snapshots = extractSnapshots(text);
  assert.equal(snapshots.length, 1, JSON.stringify(snapshots, null, 2));
  return snapshots[0]!;
}

describe('extractSnapshots: type from cue phrases', () => {
  for (const [type, texts] of Object.entries(TYPE_FIXTURES)) {
    for (const text of texts) {
      it(`${type}: ${text}`, () => {
        assert.equal(only(text).type, type);
      });
    }
  }

  it('a statement without any cue is a Belief, the default type', () => {
    assert.equal(only('Most customers read the pricing page twice before they buy anything.').type, 'Belief');
  });

  it('the strongest cue wins when several are present ("I will never" outweighs "never")', () => {
    assert.equal(only('I will never again store passwords in plain text.').type, 'Conviction');
  });
});

describe('extractSnapshots: fields the text gives', () => {
  it('steps from a numbered list, numbered in order, the paragraph before as the core', () => {
    const snapshot = only(STEPS_LIST);
    assert.equal(
      snapshot.steps,
      [
        '1. Collect every open loop from your inbox, notes and desk.',
        '2. Review the calendar for the past week and the next two weeks.',
        '3. Choose three priorities for the coming week.',
        '4. Write down the first action for each priority.',
      ].join('\n'),
    );
    assert.match(snapshot.core, /^The weekly review keeps a busy person in control/);
    assert.equal(snapshot.method, 'To apply it, follow these steps');
  });

  it('steps from "first … then … finally" prose', () => {
    const snapshot = only(SEQUENCE_PROSE);
    assert.equal(snapshot.core, 'Onboarding a new engineer well pays for itself within a month.');
    assert.equal(
      snapshot.steps,
      [
        '1. First, pair them with a buddy for the first week.',
        '2. Then give them a small bug to fix on their first day.',
        '3. Finally, ask them to write down everything that confused them.',
      ].join('\n'),
    );
  });

  it('challenge from "however" / critics', () => {
    const snapshot = only(CHALLENGE_TEXT);
    assert.equal(
      snapshot.challenge,
      'However, critics point out that reviews slow teams down and mostly catch style issues.',
    );
    assert.equal(
      snapshot.core,
      'I believe that code review catches design problems early, before they become expensive.',
    );
    assert.equal(snapshot.type, 'Belief');
  });

  it('story from past-tense narrative ("When I …", "in 2019"), the claim stays the core', () => {
    const snapshot = only(STORY_TEXT);
    assert.equal(snapshot.core, 'I believe that postmortems must never blame a person.');
    assert.match(snapshot.story ?? '', /^When I ran the operations team in 2019, we blamed an engineer/);
    assert.match(snapshot.story ?? '', /The same outage happened again the next year\.$/);
  });

  it('method from "to apply it"', () => {
    const snapshot = only(METHOD_TEXT);
    assert.match(snapshot.method ?? '', /^To apply it, review each card just before you would forget it/);
    assert.equal(snapshot.core, 'Spaced repetition beats rereading for anything you need to remember for years.');
  });

  it('fields the text does not give are left out, not empty', () => {
    const snapshot = only('I believe that small teams ship better software than large committees.');
    for (const field of ['story', 'method', 'steps', 'challenge']) assert.equal(field in snapshot, false, field);
    assert.equal(snapshot.one_liner, 'I believe that small teams ship better software than large committees.');
  });
});

describe('extractSnapshots: grouping, naming, tags', () => {
  it('adjacent sentences about one idea make one snapshot, not one per sentence', () => {
    const text =
      'I believe that small teams ship better software than large committees. Every extra person on a team adds ' +
      'coordination cost. A team of five can hold the whole design in their heads. Large committees spend their ' +
      'time aligning instead of building.';
    const snapshot = only(text);
    // The claim is the core; the sentences that argue for it are its proof.
    assert.equal(snapshot.core, 'I believe that small teams ship better software than large committees.');
    assert.equal(
      snapshot.proof,
      'Every extra person on a team adds coordination cost. A team of five can hold the whole design in their heads. ' +
        'Large committees spend their time aligning instead of building.',
    );
  });

  it('separate paragraphs about separate ideas make separate snapshots, in the text order', () => {
    const text = [TYPE_FIXTURES.Rule[0], TYPE_FIXTURES.Model[0], TYPE_FIXTURES.Conviction[0]].join('\n\n');
    assert.deepEqual(
      extractSnapshots(text).map((s) => s.type),
      ['Rule', 'Model', 'Conviction'],
    );
  });

  it('a lead-in that only announces the claim ("The rule is simple:") is not part of its name', () => {
    const snapshot = only('The rule is simple: never merge a pull request that has no test.');
    assert.equal(snapshot.name, 'Never merge a pull request that has no test');
    assert.equal(snapshot.type, 'Rule');
    // Without the colon the adjective is the claim's own word, and the name keeps it.
    assert.match(only('The principle is simple enough that every new hire applies it on day one.').name, /simple/i);
  });

  it('a bulleted list of separate rules makes one snapshot per rule', () => {
    const text =
      'My deployment rules:\n- Never deploy on a Friday afternoon.\n- Always roll back before you debug a failed release.';
    const snapshots = extractSnapshots(text);
    assert.deepEqual(
      snapshots.map((s) => [s.name, s.type]),
      [
        ['Never deploy on a Friday afternoon', 'Rule'],
        ['Always roll back before you debug a failed release', 'Rule'],
      ],
    );
  });

  it('the name is the claim without its cue phrase, capitalized, without closing punctuation', () => {
    assert.equal(only(TYPE_FIXTURES.Belief[0]).name, 'Small teams ship better software than large committees');
    assert.equal(only(TYPE_FIXTURES.Conviction[0]).name, 'Honesty with customers is the only durable strategy');
    assert.equal(only(TYPE_FIXTURES.Rule[0]).name, 'Never deploy to production on a Friday afternoon');
  });

  it('a long claim is named by its first clause, a heading names the paragraph under it', () => {
    const long = only(
      'Teams that write their decisions down repeat fewer mistakes over the years, because new people can read why things are the way they are.',
    );
    assert.equal(long.name, 'Teams that write their decisions down repeat fewer mistakes over the years');
    const headed = only(
      '## Why small teams win\n\nEvery extra person on a team adds coordination cost to each decision.',
    );
    assert.equal(headed.name, 'Why small teams win');
  });

  it('tags are the key nouns: lower case, 3 to 64 characters of letters, digits and hyphens, at most five', () => {
    const snapshot = only(
      'I believe that code review catches design problems early. Code review is cheaper than a production incident.',
    );
    assert.ok(snapshot.tags.length >= 1 && snapshot.tags.length <= 5, JSON.stringify(snapshot.tags));
    for (const tag of snapshot.tags) assert.match(tag, /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/);
    assert.ok(snapshot.tags.includes('review'), JSON.stringify(snapshot.tags));
    assert.equal(new Set(snapshot.tags).size, snapshot.tags.length);
  });

  it('confidence falls with hedges and rises with emphasis; both stay in [0, 1]', () => {
    const hedged = only('Maybe small teams probably ship a bit faster, perhaps, in some companies.');
    const firm = only('I am convinced that small teams always ship faster than large committees.');
    assert.ok(hedged.confidence < 0.5, String(hedged.confidence));
    assert.ok(firm.confidence > 0.7, String(firm.confidence));
  });
});

describe('extractSnapshots: filler', () => {
  it('a transcript with greetings and hesitations gives its insights and no filler', () => {
    const snapshots = extractSnapshots(TRANSCRIPT);
    assert.equal(snapshots.length, 2, JSON.stringify(snapshots, null, 2));
    for (const snapshot of snapshots) {
      assert.doesNotMatch(snapshot.core, FILLER_PATTERN);
      assert.doesNotMatch(snapshot.core, /\b(?:um|uh)\b|you know/i);
    }
    assert.equal(snapshots[0]!.core, 'I think that the best hiring signal is how a candidate explains a past mistake.');
    assert.equal(snapshots[0]!.name, 'The best hiring signal is how a candidate explains a past mistake');
    assert.match(snapshots[1]!.core, /^We learned that paying interns fairly doubles the number of strong applicants/);
  });

  it('a text of nothing but filler gives no snapshot', () => {
    assert.deepEqual(extractSnapshots('Um. Uh, yeah. Okay, okay. Hi everyone! Thanks, bye. Right? Hmm.'), []);
    assert.deepEqual(extractSnapshots(''), []);
    assert.deepEqual(extractSnapshots(' \n\n\t '), []);
  });
});

describe('extractSnapshots: speech and titles', () => {
  it('captions without punctuation are cut into sentences at words that open a new thought', () => {
    const captions =
      'so today I want to talk about habits and um the thing that I learned is that habits are not about willpower ' +
      'at all they are about environment so if you put the guitar in the middle of the living room you will play it ' +
      'more and if you hide the cookies you will eat fewer of them and I think that is the most important idea in the ' +
      'whole book because it means you do not have to be a better person you just have to design a better room';
    const snapshot = only(captions);
    assert.equal(snapshot.name, 'Habits are not about willpower at all they are about environment');
    assert.equal(
      snapshot.one_liner,
      'The thing that I learned is that habits are not about willpower at all they are about environment.',
    );
    assert.match(
      snapshot.proof ?? '',
      /^If you put the guitar in the middle of the living room you will play it more\. /,
    );
    assert.doesNotMatch(`${snapshot.core} ${snapshot.proof}`, /talk about habits|\bum\b/);
  });

  it('an adverb between "I" and "believe" is still a Belief cue, and is left out of the name', () => {
    const snapshot = only('I now believe that estimates should be ranges, not single numbers.');
    assert.equal(snapshot.type, 'Belief');
    assert.equal(snapshot.name, 'Estimates should be ranges, not single numbers');
  });

  it('a short first line above the text is its title, in any case', () => {
    const snapshot = only(
      'Why I stopped estimating in hours\n\nEstimates in hours were wrong because software work hides its size until you start it.',
    );
    assert.equal(snapshot.name, 'Why I stopped estimating in hours');
  });

  it('a podcast gives its lessons: no introduction, questions or thanks; a short cued sentence joins the one before', () => {
    const snapshots = extractSnapshots(PODCAST);
    assert.deepEqual(
      snapshots.map((s) => [s.type, s.name]),
      [
        ['Rule', 'You should hire slowly and fire quickly'],
        ['Belief', 'Now we write a one-page culture memo before the first hire'],
        ['Conviction', 'I will never again raise money'],
      ],
    );
    assert.match(snapshots[0]!.story ?? '', /^In my first company we hired twelve people/);
    assert.match(snapshots[1]!.steps ?? '', /^1\. First, we list the three behaviours we reward\.\n2\. Then/);
    assert.equal(
      snapshots[2]!.core,
      'I will never again raise money from investors who want control of the board. That is non-negotiable for me.',
    );
  });
});
