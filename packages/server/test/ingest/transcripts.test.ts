// Meetings and transcripts come in clean (design §13.4): turns are read as turns, whatever tool
// exported them; greetings, fillers, one-word replies and small talk make no snapshot; each
// decision or rule is a snapshot of its own; titles, dates and attendee lines are never
// snapshots, and tags are subjects, not months or units of time.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

interface Made {
  name: string;
  core: string;
  type: string;
  tags: string[];
  proof: string | null;
  challenge: string | null;
}

const TIME_TAGS = /^(?:minute|minutes|hour|hours|second|march|may|june|friday|monday|afternoon|morning|week|month)$/;

describe('transcripts and meeting records through the API', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const ingest = async (content: string): Promise<Made[]> => {
    const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'meetings' } });
    const res = await api.request('POST', '/v1/ingest', { key, body: { content, brain_id: brain.body.data.id } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.snapshots as Made[];
  };
  const text = (s: Made) => [s.name, s.core, s.proof, s.challenge].join('\n');

  it('the incident review: the title, date, attendees, summary label and sign-off make nothing; each rule is its own', async () => {
    const snapshots = await ingest(fixture('incident-review.md'));
    const all = snapshots.map(text).join('\n');
    assert.doesNotMatch(all, /Incident review|Attendees|Priya Shah, Marco|Date:|Summary:|Thanks everyone|see you/);
    assert.doesNotMatch(all, /Marco disagreed slightly|walked through the timeline/);
    const rules = snapshots.filter((s) => s.type === 'Rule').map((s) => s.core);
    assert.ok(
      rules.some((c) => /secrets are never rotated during business hours/.test(c)),
      JSON.stringify(rules),
    );
    assert.ok(
      rules.some((c) => /^Every alert for the payment path must page/.test(c)),
      JSON.stringify(rules),
    );
    assert.ok(
      rules.some((c) => /^Lena will add a reload check/.test(c)),
      'an action item with owner and date',
    );
    for (const s of snapshots) {
      // A rule is never the proof of another snapshot.
      assert.doesNotMatch(s.proof ?? '', /must page|never rotated|will add a reload/);
      for (const tag of s.tags) assert.doesNotMatch(tag, TIME_TAGS, `tag ${tag}`);
    }
    assert.ok(snapshots.length >= 4 && snapshots.length <= 7, String(snapshots.length));
  });

  it('a timestamped transcript: greetings, one-word replies and small talk make nothing', async () => {
    const snapshots = await ingest(fixture('meeting.txt'));
    const all = snapshots.map(text).join('\n');
    assert.doesNotMatch(all, /hear me|weekend|hiking|Sounds good|loud and clear|First item|Weekly product sync/i);
    const cores = snapshots.map((s) => s.core);
    assert.ok(
      cores.some((c) => /^We decided to let people into the product/.test(c)),
      JSON.stringify(cores),
    );
    assert.ok(cores.some((c) => /no release ships on a Friday afternoon/.test(c)));
    assert.equal(snapshots.find((s) => /no release ships/.test(s.core))?.type, 'Rule');
    for (const s of snapshots) assert.doesNotMatch(s.core, /^\[?\d|^(?:Sam|Jordan|Alex):/);
  });

  it('small talk of any length makes nothing: the snapshots follow what was decided and learnt', async () => {
    const snapshots = await ingest(fixture('design-meeting.txt'));
    const all = snapshots.map(text).join('\n');
    assert.doesNotMatch(all, /goats|cans|uncle|kids|roadworks|banana|coffee/i);
    const cores = snapshots.map((s) => s.core);
    assert.ok(
      cores.some((c) => /remote gets only five buttons/.test(c)),
      JSON.stringify(cores),
    );
    assert.ok(cores.some((c) => /must survive a drop/.test(c)));
    assert.ok(
      cores.some((c) => /Seventy percent of people/.test(c)),
      'what was learnt',
    );
    assert.ok(snapshots.length <= 4, String(snapshots.length));
  });

  it('Otter blocks and WebVTT cues are read as speaker turns', async () => {
    const otter = await ingest(fixture('otter.txt'));
    assert.deepEqual(
      otter.map((s) => s.type),
      ['Rule', 'Rule'],
    );
    assert.match(otter[0]!.core, /^We decided to move the launch to the first week of June/);
    assert.match(otter[1]!.core, /sandbox does not support refunds/);
    for (const s of otter) assert.doesNotMatch(text(s), /Sam Lee|Jordan Park|0:\d\d|Thanks, bye/);

    const vtt = await ingest(fixture('zoom.vtt'));
    const cores = vtt.map((s) => s.core);
    assert.ok(
      cores.some((c) => /^We agreed that every new service ships with a runbook/.test(c)),
      JSON.stringify(cores),
    );
    assert.ok(cores.some((c) => /alerts without a runbook get ignored/.test(c)));
    for (const s of vtt) assert.doesNotMatch(text(s), /WEBVTT|-->|<v |Good morning|Ana Ruiz|Ben Ode/);
  });
});
