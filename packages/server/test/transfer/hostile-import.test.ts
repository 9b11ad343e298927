import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueApiKey } from '../../src/domain/keys/index.js';
import { importFile, ImportRejected, importSource } from '../../src/domain/transfer/index.js';
import { testBackend } from '../helpers/database.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { exportText, parseLines, writeFile } from './support.js';

const importInto = (api: TestApi, path: string, options: { brainId?: string; accountId?: string } = {}) =>
  importFile(api.app.domain, importSource(path, path.endsWith('.graphml') ? '<' : '{'), options);

const NEW_BRAIN = 'brain_0123456789ABCDEFGHJKMNPQ';

/** Issue 34: import files made to reach another account, break the API's rules, or trip the reader. */
describe('import of hostile files', () => {
  let api: TestApi;
  let owner: TestKey;
  let other: TestKey;
  let ownerSnapshots: string[];
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    owner = await api.newKey();
    other = await api.newKey();
    ownerSnapshots = [];
    for (const name of ['Owned', 'Also owned']) {
      const created = await api.request('POST', '/v1/snapshots', {
        key: owner,
        body: { name, core: `${name}: a snapshot of the first account`, type: 'Belief' },
      });
      assert.equal(created.status, 201);
      ownerSnapshots.push(created.body.data.id);
    }
    const edge = await api.request('POST', '/v1/edges', {
      key: owner,
      body: { source_id: ownerSnapshots[0], target_id: ownerSnapshots[1], edge_type: 'supports' },
    });
    assert.equal(edge.status, 201);
  });
  after(() => api.close());

  /** The owner's export, moved to a brain id nobody has: a file for a new brain that reuses the owner's ids. */
  async function fileReusingOwnerIds(): Promise<string> {
    const lines = parseLines(await exportText(api, owner, owner.brainId)).filter(
      (line) => line.kind === undefined || ['brain', 'snapshot', 'edge', 'end'].includes(line.kind),
    );
    const text = lines.map((line) => JSON.stringify(line)).join('\n');
    const moved = parseLines(text.replaceAll(owner.brainId, NEW_BRAIN));
    const end = moved.at(-1) as { counts: Record<string, number> };
    end.counts = { brain: 1, snapshot: 2, edge: 1 };
    return `${moved.map((line) => JSON.stringify(line)).join('\n')}\n`;
  }

  it('ids another account holds get new ids: no record refers to that account, counts are true, the export imports back', async () => {
    const path = writeFile(api.dir, 'reuses.jsonl', await fileReusingOwnerIds());
    const result = await importInto(api, path);
    assert.equal(result.keptIds, false);
    assert.notEqual(result.brainId, NEW_BRAIN);
    assert.equal(result.written.snapshot?.records, 2);
    assert.equal(result.written.edge?.records, 1);

    const { key: reader } = await issueApiKey(api.app.domain, { plan: 'pro', brainId: result.brainId });
    const listed = await api.request('GET', `/v1/snapshots?brain_id=${result.brainId}&limit=100`, { key: reader });
    assert.equal(listed.status, 200);
    const ids = listed.body.data.map((s: { id: string }) => s.id).sort();
    assert.equal(ids.length, 2, 'both snapshots written, as the counts say');
    for (const id of ids) assert.ok(!ownerSnapshots.includes(id));
    const edges = await api.request('GET', `/v1/edges?brain_id=${result.brainId}`, { key: reader });
    assert.equal(edges.body.data.length, 1);
    const [edge] = edges.body.data;
    assert.ok(
      ids.includes(edge.source_id) && ids.includes(edge.target_id),
      'the edge joins the new brain’s own snapshots',
    );

    // The owner's rows are as they were.
    for (const id of ownerSnapshots) {
      const own = await api.request('GET', `/v1/snapshots/${id}`, { key: owner });
      assert.equal(own.status, 200);
      assert.equal(own.body.data.brain_id, owner.brainId);
    }
    // Running it again makes no copy.
    const again = await importInto(api, path);
    assert.equal(again.brainId, result.brainId);
    assert.equal(again.alreadyImported, true);
    // The new brain's own export imports into another server.
    const target = await startTestApi({ backgroundWork: false });
    try {
      const copy = writeFile(target.dir, 'copy.jsonl', await exportText(api, reader, result.brainId));
      const back = await importInto(target, copy);
      assert.equal(back.keptIds, true);
      assert.equal(back.brainId, result.brainId);
    } finally {
      await target.close();
    }
  });

  it('with the caller’s account (POST /v1/brains/import), records go into that account only', async () => {
    const path = writeFile(api.dir, 'caller.jsonl', await fileReusingOwnerIds());
    const result = await importInto(api, path, { accountId: other.accountId });
    const brain = await api.app.domain.store.brains.getUnscoped(result.brainId);
    assert.equal(brain?.account_id, other.accountId);
    // Into a brain of another account: not found.
    await assert.rejects(importInto(api, path, { accountId: other.accountId, brainId: owner.brainId }), /not found/);
  });

  it('a byte-order mark before the header is tolerated', async () => {
    const target = await startTestApi({ backgroundWork: false });
    try {
      const path = writeFile(target.dir, 'bom.jsonl', `\uFEFF${await exportText(api, owner, owner.brainId)}`);
      const result = await importInto(target, path);
      assert.equal(result.brainId, owner.brainId);
      assert.equal(result.written.snapshot?.records, 2);
    } finally {
      await target.close();
    }
  });

  it('a record breaking the API’s rules is refused with its line: nesting, size, __proto__', async () => {
    const lines = parseLines(await fileReusingOwnerIds());
    const snapshot = lines[2] as { data: Record<string, unknown> };
    // Written as text: JSON.stringify itself cannot go that deep.
    const deep = `${'{"a":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const cases: [unknown, RegExp][] = [
      ['@@deep@@', /line 3.*emotion is nested more than 64 levels deep/],
      [{ blob: 'x'.repeat(5_000_000) }, /line 3.*emotion must be at most 4096 bytes/],
      [JSON.parse('{"__proto__": {"polluted": true}}'), /line 3.*emotion\.__proto__ is not allowed/],
    ];
    for (const [emotion, reason] of cases) {
      snapshot.data.emotion = emotion;
      const text = `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`.replace('"@@deep@@"', deep);
      const path = writeFile(api.dir, 'bad.jsonl', text);
      const refused = await importInto(api, path).then(
        () => assert.fail('imported'),
        (err: unknown) => err,
      );
      assert.ok(refused instanceof ImportRejected);
      const reasons = refused.problems.map((p) => `line ${p.line}: ${p.reason}`).join('\n');
      assert.match(reasons, reason);
    }
  });

  it('GraphML: a snapshot named with a NUL and other control characters exports as well-formed XML and imports back', async () => {
    if (testBackend === 'postgres') {
      // PostgreSQL cannot store U+0000: a clear 400 there, and the other characters round-trip.
      const refused = await api.request('POST', '/v1/snapshots', {
        key: other,
        body: { name: 'Nul\u0000', core: 'Not storable here', type: 'Belief' },
      });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.match(refused.body.error.message, /NUL/);
    }
    const name = `${testBackend === 'postgres' ? 'Unit separator\u001F' : 'Nul\u0000'} and bell\u0007 and \uFFFF`;
    const created = await api.request('POST', '/v1/snapshots', {
      key: other,
      body: { name, core: 'Control characters\u0001 in text', type: 'Belief', story: 'tab\tline\nfine' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const graphml = await exportText(api, other, other.brainId, 'graphml');
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    assert.doesNotMatch(graphml, /[\u0000-\u0008\uFFFF]/);
    const target = await startTestApi({ backgroundWork: false });
    try {
      const path = writeFile(target.dir, 'brain.graphml', graphml);
      await importInto(target, path);
      const { key: reader } = await issueApiKey(target.app.domain, { plan: 'pro', brainId: other.brainId });
      const back = await target.request('GET', `/v1/snapshots/${created.body.data.id}`, { key: reader });
      assert.equal(back.status, 200);
      assert.equal(back.body.data.name, name);
      assert.equal(back.body.data.core, 'Control characters\u0001 in text');
      assert.equal(back.body.data.story, 'tab\tline\nfine');
    } finally {
      await target.close();
    }
  });
});
