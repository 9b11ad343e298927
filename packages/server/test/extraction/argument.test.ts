// The built-in extractor reads an argument (docs/extraction.md, "Reading the argument"): the
// claim is the core, the reasons and the answers to objections are the proof, the other side's
// voice is the challenge. One pinned example a rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractSnapshots } from '../../src/domain/extraction/index.js';
import { MAX_WORD_CHARACTERS, tagSentences } from '../../src/domain/extraction/nlp.js';

function only(text: string) {
  const snapshots = extractSnapshots(text);
  assert.equal(snapshots.length, 1, JSON.stringify(snapshots, null, 2));
  return snapshots[0]!;
}

describe('extractSnapshots: reading the argument', () => {
  it('a short argument is one snapshot: its claim the core, its reasons the proof', () => {
    const s = only(
      'Cities should plant more trees along their streets. Trees cool the pavement by several degrees in summer. ' +
        'They also take up rain that would otherwise flood the drains.',
    );
    assert.equal(s.core, 'Cities should plant more trees along their streets.');
    assert.equal(s.name, 'Cities should plant more trees along their streets');
    assert.match(s.proof ?? '', /^Trees cool the pavement .* flood the drains\.$/);
    assert.equal(s.challenge, undefined);
  });

  it('a conclusion marker ("that is why") makes its sentence the claim, without the marker', () => {
    const s = only(
      'The old boiler breaks down every winter. Repairs have cost more than a new one would. ' +
        "That's why we should replace it before October.",
    );
    assert.equal(s.core, 'We should replace it before October.');
    assert.match(s.proof ?? '', /^The old boiler breaks down every winter\. Repairs/);
  });

  it('a stance ("should") outweighs being first; a reason opener ("because", "besides") never makes the claim', () => {
    const s = only(
      'The bus to the school takes forty minutes. Besides, it is always full. The town should run a second line.',
    );
    assert.equal(s.core, 'The town should run a second line.');
  });

  it('"Of course X, but Y": X is the challenge, the answer Y is proof', () => {
    const s = only(
      'Our team should stop estimating in days. Of course managers want a date for each feature, ' +
        'but ranges give them a date they can trust.',
    );
    assert.equal(s.core, 'Our team should stop estimating in days.');
    assert.equal(s.challenge, 'Of course managers want a date for each feature.');
    assert.equal(s.proof, 'Ranges give them a date they can trust.');
  });

  it('"Although X, Y": Y is the claim, X the challenge', () => {
    const s = only('Although electric bikes cost more to buy, they are cheaper than a car within two years.');
    assert.equal(s.core, 'They are cheaper than a car within two years.');
    assert.equal(s.challenge, 'Although electric bikes cost more to buy.');
  });

  it('"Y, even if X": X is the challenge', () => {
    const s = only('We should go hiking on Saturday, even if the forecast says it might rain.');
    assert.equal(s.core, 'We should go hiking on Saturday.');
    assert.equal(s.challenge, 'Even if the forecast says it might rain.');
  });

  it('the other side reported ("my parents say", "critics argue", "one could object") is the challenge', () => {
    for (const objection of [
      'My parents say the neighbourhood is too loud for children.',
      'Critics argue that the rents there will only rise.',
      'One could object that the schools nearby are crowded.',
    ]) {
      const s = only(
        `We should move to the city centre. The commute would drop from an hour to ten minutes. ${objection}`,
      );
      assert.equal(s.core, 'We should move to the city centre.');
      assert.equal(s.challenge, objection, objection);
    }
  });

  it('"Yes, X. But Y.": the conceded sentence is the challenge, the rebuttal proof', () => {
    const s = only(
      'Tomorrow I will run my first marathon. Yes, my knee might hurt after thirty kilometres. ' +
        'But I have trained for this race for a whole year.',
    );
    assert.equal(s.core, 'Tomorrow I will run my first marathon.');
    assert.equal(s.challenge, 'Yes, my knee might hurt after thirty kilometres.');
    assert.equal(s.proof, 'But I have trained for this race for a whole year.');
  });

  it('a "however" that answers no concession is a caveat of the claim: the challenge', () => {
    const s = only(
      'Remote work gives engineers long hours of focus. However, onboarding a new hire takes twice as long.',
    );
    assert.equal(s.core, 'Remote work gives engineers long hours of focus.');
    assert.equal(s.challenge, 'However, onboarding a new hire takes twice as long.');
  });

  it('a reason clause ("…, because X") goes to proof; the claim stays short', () => {
    const s = only('You should back up your laptop every week, because disks fail without any warning.');
    assert.equal(s.core, 'You should back up your laptop every week.');
    assert.equal(s.proof, 'Because disks fail without any warning.');
  });

  it('"…, for, as X" cuts the reason at "for,"', () => {
    const s = only(
      'Tenants should be allowed to keep pets, for, as surveys keep showing, pets make people stay longer.',
    );
    assert.equal(s.core, 'Tenants should be allowed to keep pets.');
  });

  it('"thus far" says until now: no conclusion marker', () => {
    const s = only(
      'Libraries should open on Sundays. Students have thus far had nowhere quiet to work at weekends. ' +
        'Many of them share small rooms.',
    );
    assert.equal(s.core, 'Libraries should open on Sundays.');
  });

  it('"it would be ADJ to …" weighs a proposal: a stance, whatever the adjective', () => {
    const s = only(
      'Parking in the old town is scarce. Visitors circle for twenty minutes. ' +
        'It would be reasonable to build a car park by the station.',
    );
    assert.equal(s.core, 'It would be reasonable to build a car park by the station.');
  });

  it('"X. Hence Y." as the second statement is a step of the argument; the stance after it is the claim', () => {
    const s = only(
      'Shops in the centre close at six. Commuters hence cannot buy groceries after work. ' +
        'Opening hours should be extended to eight.',
    );
    assert.equal(s.core, 'Opening hours should be extended to eight.');
    // Two statements alone: the conclusion is the end of the argument.
    const two = only('Shops in the centre close at six. Commuters hence cannot buy groceries after work.');
    assert.equal(two.core, 'Commuters hence cannot buy groceries after work.');
  });

  it('"Despite X, which Z, Y": X and its relative clause are conceded, Y is the claim', () => {
    const s = only(
      'Despite the long waiting lists, which grow every year, the clinic should not hire agency nurses. ' +
        'Agency staff leave after a few weeks.',
    );
    assert.equal(s.core, 'The clinic should not hire agency nurses.');
    assert.equal(s.challenge, 'Despite the long waiting lists, which grow every year.');
  });

  it('"Nevertheless, one has to admit that X": X is granted to the other side, the answer after it is proof', () => {
    const s = only(
      'The council should light the cycle path along the river. Riders use it after dark all winter. ' +
        'Nevertheless one has to admit that lamps there would disturb the bats. Low amber lights would not, though.',
    );
    assert.equal(s.core, 'The council should light the cycle path along the river.');
    assert.equal(s.challenge, 'Nevertheless one has to admit that lamps there would disturb the bats.');
    assert.match(s.proof ?? '', /^Riders use it after dark all winter\. Low amber lights would not, though\.$/);
    // Without the contrast, "we must agree on …" and "we grant …" are the author's own.
    for (const text of [
      'The team should ship the beta in May. We must agree on a date this week.',
      'Support should only read the billing page. We grant admins full access to it.',
    ]) {
      assert.equal(only(text).challenge, undefined, text);
    }
  });

  it('"But it remains doubtful whether X" is an objection; the sentence before it stays the author\'s', () => {
    const s = only(
      'Every school should teach first aid. A trained pupil can keep a patient alive until help arrives. ' +
        'Courses could fit into the sports lessons. But it remains doubtful whether schools have the staff to run them.',
    );
    assert.equal(s.core, 'Every school should teach first aid.');
    assert.equal(s.challenge, 'But it remains doubtful whether schools have the staff to run them.');
    assert.match(s.proof ?? '', /Courses could fit into the sports lessons\.$/);
  });
});

describe('extractSnapshots: long words', () => {
  it(`a word longer than ${MAX_WORD_CHARACTERS} characters never reaches the model, and stays in the text`, () => {
    const blob = 'QUJD'.repeat(30);
    const [sentence] = tagSentences(`The key is ${blob}. Keep it safe.`);
    const token = sentence!.tokens.find((t) => t.text === blob);
    assert.ok(token, JSON.stringify(sentence));
    assert.equal(token.pos, 'X');
    assert.equal(sentence!.text, `The key is ${blob}.`);
  });

  it('a 100,000-character word is read in linear time (it took 26 s before the bound)', () => {
    const started = performance.now();
    const snapshots = extractSnapshots(`Base64 blob follows: ${'QUJD'.repeat(25_000)} and we should always test.`);
    const ms = performance.now() - started;
    assert.ok(ms < 2_000, `${ms.toFixed(0)} ms`);
    for (const s of snapshots)
      assert.equal(
        s.tags.some((t) => t.startsWith('qujd')),
        false,
      );
  });
});

describe('tagSentences: sentence ends', () => {
  it('"etc." before a capitalized word that names nothing ends the sentence; before a name or in lower case it does not', () => {
    const texts = (text: string) => tagSentences(text).map((s) => s.text);
    assert.deepEqual(texts('People meet in parks, cafes etc. Furthermore, shops stay shut.'), [
      'People meet in parks, cafes etc.',
      'Furthermore, shops stay shut.',
    ]);
    assert.deepEqual(texts('We bought apples, pears etc. and went home.'), [
      'We bought apples, pears etc. and went home.',
    ]);
  });
});

describe('extractSnapshots: one insight, one snapshot', () => {
  it('an argument over two paragraphs is one snapshot when the second concedes or concludes', () => {
    const s = only(
      'Remote teams should write their decisions down. Chat history scrolls away within a day.\n\n' +
        'Admittedly, writing takes time. But it saves the next meeting.',
    );
    assert.equal(s.core, 'Remote teams should write their decisions down.');
    assert.equal(s.challenge, 'Admittedly, writing takes time.');
    const concluded = only(
      "Chat history scrolls away within a day. Nobody finds last month's decision again.\n\n" +
        'Therefore, remote teams should write their decisions down.',
    );
    assert.equal(concluded.core, 'Remote teams should write their decisions down.');
  });

  it('two insights in one paragraph, each with its own cue and words, are two snapshots', () => {
    const snapshots = extractSnapshots(
      'I believe small teams ship better software than large committees. ' +
        'You must never deploy a database migration on a Friday afternoon.',
    );
    assert.deepEqual(
      snapshots.map((s) => s.type),
      ['Belief', 'Rule'],
    );
  });
});
