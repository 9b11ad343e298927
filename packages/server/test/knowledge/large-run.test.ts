import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newSnapshot } from '../../src/domain/snapshots/index.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { prose } from '../compute/prose.js';

/**
 * A run of more than a few hundred rows is written off the event loop on SQLite (a worker with
 * a connection of its own: store/sqlite/off-thread-writes.ts), in slices of a few hundred rows
 * (sliced-writes.ts). Once answered, every read of this process sees all of it, as it sees a
 * small run; a write that fails writes nothing.
 */
describe('a large run is written whole, and seen at once', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  it('a document of hundreds of entries: every row in the brain, its counts, its source and search', async () => {
    const res = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'document', title: 'A long ordinary document', content: prose(60_000) },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
    const { data } = res.body;
    const rows = data.entries.length + data.snapshots.length + data.edges.length;
    assert.ok(rows > 600, `only ${rows} rows: too few to be written off the event loop`);

    const brain = await api.request('GET', `/v1/brains/${key.brainId}`, { key });
    assert.equal(brain.body.data.snapshot_count, data.snapshots.length);
    assert.equal(brain.body.data.edge_count, data.edges.length);

    const source = await api.request('GET', `/v1/specific-knowledge/sources/${data.source_id}`, { key });
    assert.equal(source.status, 200);
    assert.deepEqual(
      source.body.data.entries.map((e: { id: string }) => e.id),
      data.entries.map((e: { id: string }) => e.id),
    );
    assert.deepEqual(
      source.body.data.snapshot_ids,
      data.snapshots.map((s: { id: string }) => s.id),
    );

    const last = data.snapshots.at(-1);
    const got = await api.request('GET', `/v1/snapshots/${last.id}`, { key });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, last);
    const word = (last.name as string).split(/\s+/).find((w) => w.length > 6) ?? last.name;
    const found = await api.request('GET', `/v1/snapshots/search?q=${encodeURIComponent(word)}&limit=100`, { key });
    assert.equal(found.status, 200);
    assert.ok(
      found.body.data.some(
        (hit: { id?: string; snapshot?: { id: string } }) => (hit.snapshot?.id ?? hit.id) === last.id,
      ),
      `search for "${word}" missed the run's last snapshot`,
    );
  });

  it('a large write that fails at its last row writes nothing', async () => {
    const brainId = key.brainId;
    const before = (await api.request('GET', `/v1/brains/${brainId}`, { key })).body.data.snapshot_count as number;
    const existing = (await api.request('GET', '/v1/snapshots?limit=1', { key })).body.data[0];
    assert.ok(existing, 'the first test made snapshots');
    const now = Date.now();
    const fresh = Array.from({ length: 700 }, (_, i) =>
      newSnapshot(
        { name: `row ${i}`, core: `row number ${i} of a write that fails` },
        brainId,
        {
          source_type: 'test',
          source_id: null,
        },
        now,
      ),
    );
    // Its last snapshot reuses an id the brain holds: the insert fails after 700 have been made.
    const clash = { ...(fresh.at(-1) as (typeof fresh)[number]), id: existing.id };
    await assert.rejects(api.app.domain.store.knowledge.write(key.accountId, { snapshots: [...fresh, clash] }));
    const after = (await api.request('GET', `/v1/brains/${brainId}`, { key })).body.data.snapshot_count as number;
    assert.equal(after, before);
    assert.equal((await api.request('GET', `/v1/snapshots/${fresh[0]?.id}`, { key })).status, 404);
  });
});
