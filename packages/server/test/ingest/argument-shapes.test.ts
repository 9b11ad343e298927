// The objection is the objection (design §13.4): through POST /v1/crystallize and stored, a
// snapshot's challenge holds what the text concedes or raises against its claim, never the
// author's answer to it ("yet…", "but…"), which is support and goes to proof.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

interface Made {
  id: string;
  core: string;
  challenge: string | null;
  proof: string | null;
}

const SHAPES: { shape: string; text: string; core: RegExp; challenge: RegExp; proof: RegExp }[] = [
  {
    shape: 'an unmarked objection answered by "But …"',
    text: 'Cities should make buses free for everyone under eighteen. Young people who ride buses keep the habit as adults. Free fares cost the city a lot of money every year. But the money comes back as fewer cars, less parking and cleaner air.',
    core: /^Cities should make buses free/,
    challenge: /^Free fares cost the city a lot of money every year\.$/,
    proof: /But the money comes back/,
  },
  {
    shape: '"Admittedly …" answered by "Yet …"',
    text: 'Teams should write down every decision they make. Admittedly, writing takes time that could go into building. Yet a written decision saves hours of arguing about what was agreed.',
    core: /^Teams should write down every decision/,
    challenge: /^Admittedly, writing takes time/,
    proof: /^Yet a written decision saves hours/,
  },
  {
    shape: '"Critics say …" answered by "But …"',
    text: 'Remote work makes teams more productive. Critics say that remote teams lose the casual conversations where ideas start. But a weekly open call brings those conversations back.',
    core: /^Remote work makes teams more productive\.$/,
    challenge: /^Critics say that remote teams lose/,
    proof: /^But a weekly open call/,
  },
  {
    shape: 'a caveat against the claim itself ("However, …")',
    text: 'Remote work makes teams more productive, because people lose no time commuting. However, onboarding a new hire takes twice as long.',
    core: /^Remote work makes teams more productive/,
    challenge: /^However, onboarding a new hire takes twice as long\.$/,
    proof: /people lose no time commuting/,
  },
  {
    shape: '"X, but Y" inside a sentence that is not the claim: X the objection, Y the answer',
    text: 'The library should stay open until ten at night. Many students work during the day and can only study late. A late shift costs the library two more staff, but the city already pays for the building all night.',
    core: /^The library should stay open until ten at night\.$/,
    challenge: /^A late shift costs the library two more staff\.$/,
    proof: /The city already pays for the building all night\./,
  },
  {
    shape: '"Y, unless X": the exception the author grants is the challenge, the claim stays Y',
    text: 'Old diesel vans should be banned from the city centre, unless they carry a filter. Their exhaust causes most of the soot in the air. But very few of them carry a filter today.',
    core: /^Old diesel vans should be banned from the city centre\.$/,
    challenge: /^Unless they carry a filter\.$/,
    proof: /Their exhaust causes most of the soot/,
  },
  {
    shape: 'a claim that explains itself after a colon: what follows is proof',
    text: 'Our town will run short of water within ten years: the wells are dropping every summer, and new houses are built every month. Rain in the spring does not refill them.',
    core: /^Our town will run short of water within ten years\.$/,
    challenge: /^$/,
    proof: /^The wells are dropping every summer/,
  },
];

describe('concession and rebuttal shapes through crystallize', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  for (const { shape, text, core, challenge, proof } of SHAPES) {
    it(shape, async () => {
      const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'arguments' } });
      const res = await api.request('POST', '/v1/crystallize', { key, body: { text, brain_id: brain.body.data.id } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const snapshots = res.body.data.snapshots as Made[];
      assert.equal(snapshots.length, 1, 'one argument, one snapshot');
      const made = snapshots[0]!;
      assert.match(made.core, core);
      assert.match(made.challenge ?? '', challenge);
      assert.match(made.proof ?? '', proof);
      // The answer is support, never part of the objection.
      assert.doesNotMatch(made.challenge ?? '', /\b(?:But|Yet) /);
      const stored = await api.request('GET', `/v1/snapshots/${made.id}`, { key });
      assert.deepEqual(
        [stored.body.data.core, stored.body.data.challenge, stored.body.data.proof],
        [made.core, made.challenge, made.proof],
      );
    });
  }
});
