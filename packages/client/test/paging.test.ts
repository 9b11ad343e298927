import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SnapgraphClient } from '../src/index.js';
import { offsetPages } from '../src/paging.js';
import { SEARCH_OFFSET_MAX } from '../src/resources/snapshots.js';
import { countingFetch, startLiveServer, type LiveServer } from './live-server.js';

describe('pages as async iterators', () => {
  let server: LiveServer;
  let sg: SnapgraphClient;
  let brainId: string;
  const counter = countingFetch();
  const created: string[] = [];
  before(async () => {
    server = await startLiveServer();
    const key = await server.newKey();
    brainId = key.brainId;
    sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, fetch: counter.fetch });
    for (let i = 0; i < 7; i++)
      created.push((await sg.snapshots.create({ name: `Note ${i}`, core: `paging note ${i}` })).id);
    for (let i = 1; i < 7; i++) {
      await sg.edges.create({ source_id: created[0]!, target_id: created[i]!, edge_type: 'elaborates' });
    }
  });
  after(() => server.close());

  it('snapshots: every item once, newest first, over several cursor pages', async () => {
    counter.calls.length = 0;
    const seen: string[] = [];
    for await (const snapshot of sg.snapshots.iterate({ limit: 3 })) seen.push(snapshot.id);
    assert.deepEqual(seen, [...created].reverse());
    const pages = counter.calls.filter((c) => c.startsWith('GET') && c.includes('/v1/snapshots?'));
    assert.equal(pages.length, 3);
    assert.match(pages[0]!, /cursor=(&|$)/);
    assert.match(pages[1]!, /cursor=[^&]+/);
  });

  it('pages() yields whole pages; stopping early sends no further request', async () => {
    counter.calls.length = 0;
    for await (const page of sg.snapshots.pages({ limit: 2 })) {
      assert.equal(page.data.length, 2);
      assert.equal(page.count, 7);
      break;
    }
    assert.equal(counter.calls.length, 1);
  });

  it("edges: a snapshot's edges and a brain's, over several pages", async () => {
    const ofSnapshot: string[] = [];
    for await (const edge of sg.edges.iterate({ snapshot_id: created[0]!, limit: 4 })) ofSnapshot.push(edge.target_id);
    assert.deepEqual(ofSnapshot.sort(), created.slice(1).sort());
    let inBrain = 0;
    for await (const page of sg.edges.pages({ brain_id: brainId, limit: 5 })) inBrain += page.data.length;
    assert.equal(inBrain, 6);
  });

  it('search results and brains, walked by offset', async () => {
    const results: string[] = [];
    for await (const result of sg.snapshots.searchAll({ q: 'paging', limit: 2 })) results.push(result.id);
    assert.equal(results.length, 7);
    assert.equal(new Set(results).size, 7);

    for (let i = 0; i < 2; i++) await sg.brains.create({ name: `Brain ${i}` });
    const brains: string[] = [];
    for await (const brain of sg.brains.iterate({ limit: 2 })) brains.push(brain.id);
    assert.equal(brains.length, 3);
    assert.ok(brains.includes(brainId));
  });
});

describe('offset pages stop at the deepest offset a list takes', () => {
  it('search pages end at offset 9,900 (the service reaches its first 10,000 results), not at a 400', async () => {
    const offsets: number[] = [];
    const pages = offsetPages(
      async (offset) => {
        offsets.push(offset);
        return { data: Array.from({ length: 100 }, (_, i) => offset + i), count: 12_000 };
      },
      0,
      SEARCH_OFFSET_MAX,
    );
    let results = 0;
    for await (const page of pages) results += page.data.length;
    assert.equal(results, 10_000);
    assert.equal(offsets.at(-1), 9_900);
  });
});
