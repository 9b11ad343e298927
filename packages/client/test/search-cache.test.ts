import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SnapgraphClient } from '../src/index.js';
import { countingFetch, startLiveServer, type LiveServer, type TestKey } from './live-server.js';

describe('search cache (design §5.8: 30 to 60 s)', () => {
  let server: LiveServer;
  let key: TestKey;
  before(async () => {
    server = await startLiveServer();
    key = await server.newKey();
    const seed = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key });
    await seed.snapshots.create({ name: 'Cache me', core: 'Caching saves round trips' });
  });
  after(() => server.close());

  const searches = (calls: string[]) => calls.filter((c) => c.includes('/v1/snapshots/search')).length;

  it('a repeated search is answered from the cache until the TTL passes', async () => {
    let now = 1_000_000;
    const counter = countingFetch();
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, fetch: counter.fetch, now: () => now });
    const first = await sg.snapshots.search({ q: 'caching' });
    const second = await sg.snapshots.search({ q: 'caching' });
    assert.deepEqual(second, first);
    assert.equal(searches(counter.calls), 1);

    // A different query (or page) is a different entry.
    await sg.snapshots.search({ q: 'caching', limit: 5 });
    assert.equal(searches(counter.calls), 2);

    now += 29_999;
    await sg.snapshots.search({ q: 'caching' });
    assert.equal(searches(counter.calls), 2, 'still fresh just before 30 s');
    now += 2;
    await sg.snapshots.search({ q: 'caching' });
    assert.equal(searches(counter.calls), 3, 'expired after 30 s');
  });

  it('a caller changing a result does not change the cached one', async () => {
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key });
    const first = await sg.snapshots.search({ q: 'caching' });
    first.data[0]!.name = 'changed by the caller';
    const again = await sg.snapshots.search({ q: 'caching' });
    assert.equal(again.data[0]!.name, 'Cache me');
  });

  it('a write through the client empties the cache, so the next search sees it', async () => {
    const counter = countingFetch();
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, fetch: counter.fetch });
    assert.equal((await sg.snapshots.search({ q: 'freshness' })).count, 0);
    await sg.snapshots.create({ name: 'Freshness', core: 'freshness matters' });
    assert.equal((await sg.snapshots.search({ q: 'freshness' })).count, 1);
    assert.equal(searches(counter.calls), 2);
  });

  it('fresh: true skips the cached answer; clearSearchCache() forgets them all', async () => {
    const counter = countingFetch();
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, fetch: counter.fetch });
    await sg.snapshots.search({ q: 'caching' });
    await sg.snapshots.search({ q: 'caching' }, { fresh: true });
    assert.equal(searches(counter.calls), 2);
    sg.clearSearchCache();
    await sg.snapshots.search({ q: 'caching' });
    assert.equal(searches(counter.calls), 3);
  });

  it('a configurable TTL up to 60 s, and an off switch', async () => {
    let now = 0;
    const counter = countingFetch();
    const long = new SnapgraphClient({
      baseUrl: server.baseUrl,
      apiKey: key.key,
      fetch: counter.fetch,
      now: () => now,
      searchCache: { ttlMs: 60_000 },
    });
    await long.snapshots.search({ q: 'caching' });
    now = 59_000;
    await long.snapshots.search({ q: 'caching' });
    assert.equal(searches(counter.calls), 1);

    const off = new SnapgraphClient({
      baseUrl: server.baseUrl,
      apiKey: key.key,
      fetch: counter.fetch,
      searchCache: false,
    });
    await off.snapshots.search({ q: 'caching' });
    await off.snapshots.search({ q: 'caching' });
    assert.equal(searches(counter.calls), 3);

    // Design §5.8: "cached by the client for 30 to 60 seconds".
    for (const ttlMs of [120_000, 60_001, 29_999, 1_000, 0]) {
      assert.throws(
        () => new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, searchCache: { ttlMs } }),
        RangeError,
        `ttlMs ${ttlMs}`,
      );
    }
    for (const ttlMs of [30_000, 60_000]) {
      assert.ok(new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, searchCache: { ttlMs } }));
    }
  });
});
