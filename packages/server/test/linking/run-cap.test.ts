import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LINK_RULES } from '../../src/domain/linking/index.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { prose } from '../compute/prose.js';

/**
 * Issue 34: one run links at most LINK_RULES.runMaxLinked of its new snapshots to the brain
 * itself; the rest are queued for the background linker, in a brain without auto_link too.
 */
describe('a run with more snapshots than it links itself', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    // No background worker: what the run queued stays queued, to be counted.
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  it('queues the snapshots beyond the cap for the background linker, and links the run among itself', async () => {
    const response = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'document', title: 'A long document', content: prose(200_000, 3) },
    });
    assert.equal(response.status, 201, JSON.stringify(response.body).slice(0, 300));
    const made = response.body.data.snapshots.length as number;
    assert.ok(made > LINK_RULES.runMaxLinked, `only ${made} snapshots: the text is too short for this test`);
    assert.equal(await api.app.domain.store.work.pending('auto_link'), made - LINK_RULES.runMaxLinked);
    // Snapshots beyond the cap still get the edges among the run's own snapshots.
    const later = new Set(response.body.data.snapshots.slice(LINK_RULES.runMaxLinked).map((s: { id: string }) => s.id));
    const touching = response.body.data.edges.filter(
      (e: { source_id: string; target_id: string }) => later.has(e.source_id) || later.has(e.target_id),
    );
    assert.ok(touching.length > 0, 'no edge among the snapshots beyond the cap');
  });
});
