// An hour-long meeting through POST /v1/ingest (design §13.4): how many snapshots a meeting
// yields follows what was decided, not how long it ran. About 400 timestamped turns of four
// people: greetings, fillers, one-word replies, screen-sharing talk and small talk, with six
// decisions and rules spread over the hour. Each decision is a snapshot of its own, no small
// talk becomes one, and the same meeting with half the small talk yields the same snapshots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const SPEAKERS = ['Dana', 'Omar', 'Li', 'Priya'];

const DECISIONS: { said: string; core: RegExp }[] = [
  {
    said: 'Okay so we decided that every pull request needs a second reviewer before it merges.',
    core: /every pull request needs a second reviewer/,
  },
  { said: 'Decision: the mobile release moves to the first Tuesday of each month.', core: /mobile release moves/ },
  {
    said: 'Right, the rule from now on is that nobody deploys to production after four on a Friday.',
    core: /nobody deploys to production after four on a Friday/,
  },
  {
    said: 'Action item: Omar will write the migration guide for the billing API by next Wednesday.',
    core: /Omar will write the migration guide/,
  },
  {
    said: 'So we agreed to keep the free plan at three projects per workspace.',
    core: /free plan at three projects per workspace/,
  },
  {
    said: 'Let me be clear on this one: customer data must never leave the EU region, not even for debugging.',
    core: /customer data must never leave the EU region/,
  },
];

const GREETINGS = [
  'Hi everyone, can you hear me?',
  'Hey, yes, loud and clear.',
  'Morning all!',
  'Hello hello.',
  'Good morning, sorry I am a minute late.',
  'Hi Dana, hi Omar.',
];
const FILLERS = [
  'Um, yeah.',
  'Right.',
  'Okay.',
  'Mm-hmm.',
  'Yeah, yeah.',
  'Sure.',
  'Got it.',
  'Uh, so, yeah.',
  'Exactly.',
  'Hmm.',
  'Cool.',
  'Yep.',
  'Makes sense.',
  'Totally.',
  'Fair enough.',
  'Oh, nice.',
];
const LOGISTICS = [
  'Can everyone see my screen now?',
  'Let me share my screen, one second.',
  'Sorry, you are on mute.',
  'Can you make the font a bit bigger?',
  'I think my camera froze, hold on.',
  'Let me drop the link in the chat.',
  'Who is taking notes today?',
  'Can we take a five minute break?',
  'I have a hard stop at eleven.',
  'Sorry, go ahead, you first.',
  'Wait, which doc are we looking at?',
  'Could you scroll down a bit?',
  'I lost you for a second there.',
  'Let me pull up the agenda again.',
];
const SMALL_TALK = [
  'How was the weekend, did you make it to the lake?',
  'We went hiking with the kids and it rained the whole time, but they loved the mud.',
  'My neighbour got a new puppy and it barks at every single bicycle that goes past.',
  'The coffee machine on the third floor is broken again, I had to walk to the bakery.',
  'Did anyone watch the match last night? That second half was unbelievable.',
  'The traffic on the bridge this morning was terrible, it took me forty minutes.',
  'I finally tried that ramen place near the station and the broth was amazing.',
  'My cat walked across the keyboard and sent half an email to my landlord.',
  'It is so hot in this room, somebody turned the heating all the way up.',
  'My sister is visiting next week, so I will probably be out on Thursday afternoon.',
  'We are repainting the kitchen and nobody can agree on the colour.',
  'The train was cancelled again, so I cycled in, which was actually quite nice.',
  'I have been baking bread every weekend, the last loaf was almost edible.',
  'Our garden is full of snails this year, they ate all the lettuce.',
  'My son started guitar lessons and practises the same three chords all evening.',
  'Is it just me or is the internet really slow today?',
  'I watched a documentary about octopuses, they can open jars from the inside.',
  'The new bakery downstairs sells cinnamon buns the size of your head.',
  'My phone fell in the sink this morning, it still works but the speaker sounds funny.',
  'We booked a cabin in the mountains for the holidays, no wifi at all.',
];

/** A deterministic meeting of `turns` turns, the decisions spread evenly between greetings and chatter. */
function meeting(turns: number, seed: number): string {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  const lines: string[] = [];
  const decisionAt = new Set(DECISIONS.map((_, i) => Math.floor(((i + 1) * turns) / (DECISIONS.length + 1))));
  let decision = 0;
  let seconds = 0;
  for (let turn = 0; turn < turns; turn++) {
    let said: string;
    if (turn < GREETINGS.length) said = GREETINGS[turn]!;
    else if (decisionAt.has(turn)) said = DECISIONS[decision++]!.said;
    else {
      const roll = random();
      said = roll < 0.45 ? pick(FILLERS) : roll < 0.7 ? pick(LOGISTICS) : pick(SMALL_TALK);
    }
    const stamp = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
      .map((n) => String(n).padStart(2, '0'))
      .join(':');
    lines.push(`[${stamp}] ${SPEAKERS[turn % SPEAKERS.length]}: ${said}`);
    // An hour over the turns: 4 to 14 seconds a turn.
    seconds += 4 + Math.floor(random() * 11);
  }
  return `Weekly platform sync\n\n${lines.join('\n')}\n`;
}

interface Made {
  name: string;
  core: string;
  type: string;
}

describe('an hour-long meeting through POST /v1/ingest', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const ingest = async (content: string): Promise<Made[]> => {
    const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'sync' } });
    const res = await api.request('POST', '/v1/ingest', { key, body: { content, brain_id: brain.body.data.id } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.snapshots as Made[];
  };

  it('400 turns: each decision is its own snapshot, small talk makes none, the count follows the decisions', async () => {
    const transcript = meeting(400, 7);
    assert.ok(transcript.split('\n').length > 400);
    assert.match(transcript, /\[00:5\d:\d\d\]|\[01:/, 'about an hour of turns');
    const snapshots = await ingest(transcript);
    const cores = snapshots.map((s) => s.core);
    for (const { core } of DECISIONS) {
      const holding = snapshots.filter((s) => core.test(s.core));
      assert.equal(holding.length, 1, `${core} in one snapshot: ${JSON.stringify(cores)}`);
      // Its own: no other decision shares its core.
      assert.ok(
        DECISIONS.every((other) => other.core === core || !other.core.test(holding[0]!.core)),
        holding[0]!.core,
      );
    }
    const chatter = [...GREETINGS, ...FILLERS, ...LOGISTICS, ...SMALL_TALK].map((line) => line.replace(/[.?!]$/, ''));
    for (const s of snapshots) {
      for (const line of chatter) assert.ok(!`${s.name}\n${s.core}`.includes(line), `"${line}" became ${s.core}`);
      assert.doesNotMatch(s.name, /Weekly platform sync/);
    }
    assert.ok(snapshots.length <= DECISIONS.length + 2, `${snapshots.length} snapshots: ${JSON.stringify(cores)}`);

    // Half the meeting's length, the same decisions: the same snapshots.
    const shorter = await ingest(meeting(200, 7));
    assert.deepEqual(
      shorter.map((s) => s.core),
      cores,
    );
  });
});
