// Documents come in clean (design §13.4): POST /v1/ingest, /v1/specific-knowledge/ingest and
// /v1/crystallize read Markdown with a real parser; what is not prose (tables, code, HTML, images,
// badges, diagrams, link lists, front matter, link reference definitions) never becomes a
// snapshot's name or core, and a snapshot's source names the heading path it came from.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const README = readFileSync(new URL('./fixtures/readme.md', import.meta.url), 'utf8');
const PROSE = 'Tidewater keeps every job in PostgreSQL, so a crashed worker never loses work.';

/** The words of a snapshot a user reads first: its name and core. */
const shown = (s: { name: string; core: string }) => `${s.name}\n${s.core}`;

describe('Markdown documents through the API', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const newBrain = async () =>
    (await api.request('POST', '/v1/brains', { key, body: { name: 'docs' } })).body.data.id as string;
  const ingest = async (content: string, extra: Record<string, unknown> = {}) => {
    const res = await api.request('POST', '/v1/ingest', {
      key,
      body: { content, brain_id: await newBrain(), ...extra },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.snapshots as { name: string; core: string; source: string | null; tags: string[] }[];
  };

  /** One construct beside one sentence of prose: only the prose is knowledge. */
  const onlyProse = async (construct: string, leaks: RegExp) => {
    const snapshots = await ingest(`# Tidewater\n\n${PROSE}\n\n${construct}\n`);
    assert.equal(snapshots.length, 1, JSON.stringify(snapshots.map(shown)));
    assert.equal(snapshots[0]!.core, PROSE);
    for (const snapshot of snapshots) assert.doesNotMatch(shown(snapshot), leaks);
  };

  it('a table is no snapshot', () =>
    onlyProse('| Variable | Default | Meaning |\n| --- | --- | --- |\n| `TW_DB` | none | the database url |', /\|/));
  it('a fenced code block is no snapshot', () =>
    onlyProse('```bash\nnpm install tidewater && tidewater migrate --all\n```', /npm|migrate/));
  it('an indented code block is no snapshot', () =>
    onlyProse('Run it:\n\n    tidewater init --database postgres://localhost/jobs', /postgres:\/\/|init/));
  it('HTML is no snapshot', () =>
    onlyProse('<div align="center"><img src="logo.png" alt="Tidewater logo"></div>', /div|img|logo/));
  it('an image is no snapshot', () =>
    onlyProse('![Architecture of the queue](docs/architecture.png)', /png|Architecture/));
  it('a badge row is no snapshot', () =>
    onlyProse(
      '[![Build](https://img.shields.io/badge/build-passing-green.svg)](https://ci.example.com) [![npm](https://img.shields.io/npm/v/x.svg)](https://npmjs.com/x)',
      /shields|Build|npm/,
    ));
  it('a box-drawing diagram is no snapshot', () =>
    onlyProse('┌── clients ──► queue ──► workers\n└──────────────┘', /[┌└►]/));
  it('a link list is no snapshot', () =>
    onlyProse(
      '- [Documentation](https://docs.example.com)\n- [API reference](https://api.example.com)',
      /Documentation|API reference/,
    ));
  it('front matter is no snapshot', async () => {
    const snapshots = await ingest(`---\ntitle: Tidewater queue handbook\nowner: platform team\n---\n\n${PROSE}\n`);
    assert.deepEqual(
      snapshots.map((s) => s.core),
      [PROSE],
    );
  });
  it('a link reference definition is no snapshot', () =>
    onlyProse('[docs]: https://docs.example.com/tidewater "The Tidewater documentation"', /https|documentation/i));

  it('nested list items are read as items, each its own idea', async () => {
    const snapshots = await ingest(
      '# Operating the queue\n\nRules for workers:\n\n- Always set a timeout on every job, or a stuck job holds its lock forever.\n  - Never retry a job that charged a card without checking the payment provider first.\n',
    );
    const cores = snapshots.map((s) => s.core).join('\n');
    assert.match(cores, /Always set a timeout on every job/);
    assert.match(cores, /Never retry a job that charged a card/);
    for (const snapshot of snapshots) assert.doesNotMatch(shown(snapshot), /^\s*[-*]/m);
  });

  it('links keep their text and drop their address', async () => {
    const snapshots = await ingest(
      '# Tidewater\n\nWorkers should claim jobs with [row locks that skip locked rows](https://www.postgresql.org/docs/current/sql-select.html), so two workers never run the same job.\n',
    );
    assert.equal(snapshots.length, 1);
    assert.match(snapshots[0]!.core, /row locks that skip locked rows/);
    assert.doesNotMatch(JSON.stringify(snapshots[0]), /https?:|postgresql\.org|\]\(/);
  });

  it('the source names the heading path, after the title when one is given', async () => {
    const snapshots = await ingest(README, { title: 'Tidewater README' });
    assert.ok(snapshots.length >= 2, JSON.stringify(snapshots.map(shown)));
    const sources = snapshots.map((s) => s.source);
    assert.ok(sources.includes('Tidewater README > Tidewater'), JSON.stringify(sources));
    assert.ok(sources.includes('Tidewater README > Tidewater > Operating the queue'), JSON.stringify(sources));
    for (const snapshot of snapshots) {
      assert.doesNotMatch(shown(snapshot), /[|┌└►`]|https?:|\]\(|<\w+|npm install|^\s*[-*]/m, shown(snapshot));
    }
    const untitled = await ingest(README);
    assert.ok(untitled.some((s) => s.source === 'Tidewater > Operating the queue'));
  });

  it('format text reads Markdown marks as they are; format markdown reads plain text as Markdown', async () => {
    const text =
      '# Tidewater\n\n| Mode | Meaning |\n| --- | --- |\n| fast | jobs run at once and are never retried by the queue |\n';
    const asText = await ingest(text, { format: 'text' });
    assert.ok(
      asText.some((s) => s.core.includes('|')),
      'read as plain text, the table row is words',
    );
    assert.deepEqual(await ingest(text, { format: 'markdown' }), []);
    assert.deepEqual(await ingest(text), [], 'detected as Markdown');
  });

  it('an unknown format is a 400 BAD_REQUEST (validation) naming the field, on all three routes, and nothing is written', async () => {
    const brainId = await newBrain();
    const bodies: [string, Record<string, unknown>][] = [
      ['/v1/ingest', { content: README }],
      ['/v1/specific-knowledge/ingest', { source_type: 'document', title: 'README', content: README }],
      ['/v1/crystallize', { text: README }],
    ];
    for (const [path, body] of bodies) {
      for (const format of ['html', 'Markdown', '', 7]) {
        const res = await api.request('POST', path, { key, body: { ...body, brain_id: brainId, format } });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(format)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'BAD_REQUEST');
        assert.equal(res.body.error.details.field, 'format', JSON.stringify(res.body.error));
        assert.match(res.body.error.message, /format/);
      }
    }
    const brain = await api.request('GET', `/v1/brains/${brainId}`, { key });
    assert.equal(brain.body.data.snapshot_count, 0);
  });

  it('specific-knowledge ingest reads Markdown: entries and snapshots without markup, sources by heading', async () => {
    const res = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'document', title: 'Tidewater README', content: README, brain_id: await newBrain() },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { entries, snapshots } = res.body.data as {
      entries: { title: string; content: string }[];
      snapshots: { name: string; core: string; source: string }[];
    };
    assert.ok(entries.length >= 2);
    for (const entry of entries)
      assert.doesNotMatch(`${entry.title}\n${entry.content}`, /[|┌└►`]|https?:|\]\(|<\w+|npm install/);
    assert.ok(snapshots.some((s) => s.source === 'Tidewater README > Tidewater > Operating the queue'));
  });

  it('crystallize reads Markdown too, and names the heading path as the source', async () => {
    const res = await api.request('POST', '/v1/crystallize', {
      key,
      body: { text: README, brain_id: await newBrain() },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const snapshots = res.body.data.snapshots as { name: string; core: string; source: string | null }[];
    assert.ok(snapshots.length >= 2);
    for (const snapshot of snapshots) assert.doesNotMatch(shown(snapshot), /[|┌└►`]|https?:|\]\(|<\w+|npm install/);
    assert.ok(snapshots.some((s) => s.source === 'Tidewater > Operating the queue'));
  });
});
