// Meeting notes and transcripts (docs/extraction.md, "Meetings"): who attended, greetings and
// sign-offs are not insights; decisions and action items are, each a Rule of its own, with who
// and when in the text; people's names are never tags.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMemories, extractSnapshots } from '../../src/domain/extraction/index.js';

const cores = (text: string) => extractSnapshots(text).map((s) => s.core);

describe('extractSnapshots: meeting notes', () => {
  it('the title, attendee and date lines, greetings and sign-offs give no snapshot', () => {
    const text = [
      'Design review, 3 May',
      'Attendees: Nadia Kaur, Oskar Lind',
      'Date: 3 May 2026',
      '',
      'Hello everyone, thanks for coming.',
      '',
      'Decision: the public API keeps version 1 until the end of the year.',
      '',
      "That's all for today, see you next week.",
    ].join('\n');
    const snapshots = extractSnapshots(text);
    assert.deepEqual(
      snapshots.map((s) => [s.type, s.core]),
      [['Rule', 'The public API keeps version 1 until the end of the year.']],
    );
    assert.notEqual(snapshots[0]!.name, 'Design review, 3 May');
  });

  it('each "Decision:" line is a Rule of its own, the label off, who and when kept', () => {
    const text =
      'Decision: Nadia moves the release to 12 June.\nDecision: support tickets older than a year are closed.';
    const snapshots = extractSnapshots(text);
    assert.deepEqual(
      snapshots.map((s) => [s.type, s.core]),
      [
        ['Rule', 'Nadia moves the release to 12 June.'],
        ['Rule', 'Support tickets older than a year are closed.'],
      ],
    );
  });

  it('"TODO:" on two lines is two action items, not a speaker called TODO', () => {
    assert.deepEqual(cores('TODO: Oskar books the venue by Monday.\nTODO: Nadia sends the invitations on Tuesday.'), [
      'Oskar books the venue by Monday.',
      'Nadia sends the invitations on Tuesday.',
    ]);
  });

  it('the items under "Action items:" are each a Rule; the header is none', () => {
    const snapshots = extractSnapshots(
      'Action items:\n- Oskar updates the pricing page before the launch.\n- Nadia calls the three largest customers this week.',
    );
    assert.deepEqual(
      snapshots.map((s) => [s.type, s.core]),
      [
        ['Rule', 'Oskar updates the pricing page before the launch.'],
        ['Rule', 'Nadia calls the three largest customers this week.'],
      ],
    );
  });

  it('"we agreed that …" is a decision, a Rule of its own even inside a paragraph', () => {
    const snapshots = extractSnapshots(
      'The migration took three weekends. We agreed that schema changes are reviewed by two people from now on.',
    );
    const decision = snapshots.find((s) => s.core.startsWith('We agreed'));
    assert.ok(decision, JSON.stringify(snapshots));
    assert.equal(decision.type, 'Rule');
    assert.equal(decision.name, 'Schema changes are reviewed by two people from now on');
  });

  it('lessons listed under "What we learned:" are a snapshot each', () => {
    const snapshots = extractSnapshots(
      'What we learned:\n- Small releases break less often than big ones.\n- Customers read the changelog more than we thought.',
    );
    assert.deepEqual(
      snapshots.map((s) => s.core),
      ['Small releases break less often than big ones.', 'Customers read the changelog more than we thought.'],
    );
  });

  it('"Priya opened with the numbers: …": the report is the statement, not who gave it', () => {
    const [s] = extractSnapshots(
      'Priya opened with the churn numbers: monthly churn rose from 3% to 4% after the price change.',
    );
    assert.equal(s?.core, 'Monthly churn rose from 3% to 4% after the price change.');
  });

  it("people's names are never tags: from attendee lines, speaker labels, the one addressed, who does what", () => {
    const text = [
      'Attendees: Nadia Kaur, Oskar Lind',
      '',
      'Nadia: I think the onboarding emails should stop after the third one.',
      'Oskar: The onboarding emails bring back a fifth of the trial users.',
      'Nadia: Oskar, can you check the unsubscribe rate of the onboarding emails?',
      '',
      'Decision: Bruno rewrites the onboarding emails by Friday.',
    ].join('\n');
    const tags = extractSnapshots(text).flatMap((s) => s.tags);
    assert.ok(tags.length > 0);
    for (const name of ['nadia', 'kaur', 'oskar', 'lind', 'bruno']) assert.equal(tags.includes(name), false, name);
  });

  it('as memories, a labelled decision and an action item are decisions, and no name is a tag', () => {
    const memories = extractMemories(
      'Decision: we keep the new prices for the starter plan.\n\nAction items:\n- Lena drafts the announcement by Friday.',
    );
    assert.deepEqual(
      memories.map((m) => m.memory_type),
      ['decision', 'decision'],
    );
    assert.equal(memories[0]!.content, 'We keep the new prices for the starter plan.');
    assert.equal(
      memories.some((m) => m.tags.includes('lena')),
      false,
    );
  });

  it("a transcript: another speaker's objection, answered by the first, is the challenge of one snapshot", () => {
    const text = [
      'Sam: I think we should hire two senior engineers before any junior.',
      'Jordan: Juniors cost less, and the budget is tight this year.',
      'Sam: Sure, they cost less, but an unmentored junior costs us more in rework.',
      'Jordan: Fair enough.',
    ].join('\n');
    const s = extractSnapshots(text);
    assert.equal(s.length, 1, JSON.stringify(s, null, 2));
    assert.equal(s[0]!.core, 'I think we should hire two senior engineers before any junior.');
    assert.match(s[0]!.challenge ?? '', /^Juniors cost less, and the budget is tight this year\./);
    assert.equal(s[0]!.proof, 'An unmentored junior costs us more in rework.');
    for (const name of ['sam', 'jordan']) assert.equal(s[0]!.tags.includes(name), false, name);
  });
});
