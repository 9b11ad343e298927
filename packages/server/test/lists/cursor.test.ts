// Keyset pagination (an extension): `cursor` in, `next_cursor` out, on snapshot and edge lists.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, snapshotBody, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);

describe('keyset pagination with cursor and next_cursor', () => {
  let api: TestApi;
  let key: TestKey;
  const clock = manualClock();
  const created: string[] = [];
  const hub = { id: '' };

  before(async () => {
    api = await startTestApi({ clock });
    key = await api.newKey();
    for (let i = 0; i < 23; i++) {
      // Several snapshots share a millisecond, so the id must break ties in the cursor too.
      if (i % 3 === 0) clock.advance(1);
      const type = i % 2 === 0 ? 'Rule' : 'Belief';
      const res = await api.request('POST', '/v1/snapshots', { key, body: snapshotBody({ name: `s${i}`, type }) });
      assert.equal(res.status, 201);
      created.push(res.body.data.id);
    }
    hub.id = created[0] as string;
    for (const target of created.slice(1, 18)) {
      if (created.indexOf(target) % 4 === 0) clock.advance(1);
      const res = await api.request('POST', '/v1/edges', {
        key,
        body: { source_id: hub.id, target_id: target, edge_type: 'supports' },
      });
      assert.equal(res.status, 201);
    }
  });
  after(() => api.close());

  async function walk(path: string, limit: number): Promise<{ pages: string[][]; counts: number[] }> {
    const pages: string[][] = [];
    const counts: number[] = [];
    let cursor: string | null = '';
    for (let guard = 0; guard < 100; guard++) {
      const sep = path.includes('?') ? '&' : '?';
      const url: string = `${path}${sep}limit=${limit}&cursor=${encodeURIComponent(cursor)}`;
      const res = await api.request('GET', url, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      pages.push(ids(res.body));
      counts.push(res.body.count ?? res.body.total);
      cursor = res.body.next_cursor;
      if (cursor === null) return { pages, counts };
      assert.equal(typeof cursor, 'string');
    }
    throw new Error('pagination did not end');
  }

  it('walking snapshots by cursor visits every snapshot once, in the same order as offsets', async () => {
    const byOffset = await api.request('GET', '/v1/snapshots?limit=100', { key });
    const expected = ids(byOffset.body);
    assert.equal(expected.length, 23);
    const { pages, counts } = await walk('/v1/snapshots', 5);
    assert.deepEqual(
      pages.map((p) => p.length),
      [5, 5, 5, 5, 3],
    );
    assert.deepEqual(pages.flat(), expected);
    assert.ok(
      counts.every((c) => c === 23),
      'count stays the total of all matches on every page',
    );
  });

  it('a page that ends exactly at the last item says so with next_cursor null', async () => {
    const all = await api.request('GET', '/v1/snapshots?limit=23&cursor=', { key });
    assert.equal(all.body.next_cursor, null);
    const fewer = await api.request('GET', '/v1/snapshots?limit=22&cursor=', { key });
    assert.equal(typeof fewer.body.next_cursor, 'string');
  });

  it('the cursor composes with the type filter', async () => {
    const rules = await api.request('GET', '/v1/snapshots?type=Rule&limit=100', { key });
    const { pages, counts } = await walk('/v1/snapshots?type=Rule', 4);
    assert.deepEqual(pages.flat(), ids(rules.body));
    assert.equal(counts[0], 12);
  });

  it('walking edges by brain and by snapshot by cursor matches the offset order', async () => {
    for (const path of [`/v1/edges?brain_id=${key.brainId}`, `/v1/edges?snapshot_id=${hub.id}`]) {
      const full = await api.request('GET', `${path}&limit=200`, { key });
      assert.equal(full.body.total, 17);
      const { pages } = await walk(path, 4);
      assert.deepEqual(pages.flat(), ids(full.body), path);
    }
  });

  it('without cursor a list has exactly the specified body; with cursor= it starts in cursor mode', async () => {
    const plain = await api.request('GET', '/v1/snapshots?limit=10&offset=0', { key });
    assert.deepEqual(Object.keys(plain.body).sort(), ['count', 'data']);
    const edges = await api.request('GET', `/v1/edges?brain_id=${key.brainId}`, { key });
    assert.deepEqual(Object.keys(edges.body).sort(), ['data', 'total']);
    // The same (kept) edge page in cursor mode, then plain again: each gets its own body.
    const edgesByCursor = await api.request('GET', `/v1/edges?brain_id=${key.brainId}&cursor=`, { key });
    assert.deepEqual(Object.keys(edgesByCursor.body).sort(), ['data', 'next_cursor', 'total']);
    assert.deepEqual(edgesByCursor.body.data, edges.body.data);
    const edgesAgain = await api.request('GET', `/v1/edges?brain_id=${key.brainId}`, { key });
    assert.deepEqual(edgesAgain.body, edges.body);
    const first = await api.request('GET', '/v1/snapshots?limit=10&cursor=', { key });
    assert.deepEqual(ids(first.body), ids(plain.body));
    const next = await api.request('GET', `/v1/snapshots?limit=10&cursor=${first.body.next_cursor}`, { key });
    const byOffset = await api.request('GET', '/v1/snapshots?limit=10&offset=10', { key });
    assert.deepEqual(ids(next.body), ids(byOffset.body));
  });

  it('an invalid cursor, or a cursor with an offset, is a 400 naming the field', async () => {
    for (const [query, field] of [
      ['cursor=garbage', 'cursor'],
      [`cursor=${Buffer.from('2026-01-01|snap_x').toString('base64url')}`, 'cursor'],
      [`cursor=${Buffer.from('2026-01-01T00:00:00.000Z|snap_A').toString('base64url')}&offset=5`, 'offset'],
    ] as const) {
      for (const path of ['/v1/snapshots', `/v1/edges?brain_id=${key.brainId}`]) {
        const sep = path.includes('?') ? '&' : '?';
        const res = await api.request('GET', `${path}${sep}${query}`, { key });
        assert.equal(res.status, 400, `${path} ${query}`);
        assert.equal(res.body.error.code, 'BAD_REQUEST');
        assert.equal(res.body.error.details.field, field, `${path} ${query}`);
      }
    }
  });

  it('a cursor of the right shape naming no real time (February 30th, month 99, year 0) is a 400 on every list', async () => {
    const position = (time: string, id: string) => Buffer.from(`${time}|${id}`).toString('base64url');
    for (const time of ['2026-02-30T10:00:00.000Z', '9999-99-99T99:99:99.999Z', '0000-01-01T00:00:00.000Z']) {
      for (const [path, id] of [
        ['/v1/snapshots', 'snap_01M8H3FVYS9Y7ZS52TFGF0368V'],
        ['/v1/snapshots?tag=x', 'snap_01M8H3FVYS9Y7ZS52TFGF0368V'],
        [`/v1/edges?brain_id=${key.brainId}`, 'edge_01M8H3FVYS9Y7ZS52TFGF0368V'],
        ['/v1/memories', 'mem_01M8H3FVYS9Y7ZS52TFGF0368V'],
        ['/v1/jobs', 'job_01M8H3FVYS9Y7ZS52TFGF0368V'],
      ] as const) {
        const sep = path.includes('?') ? '&' : '?';
        const res = await api.request('GET', `${path}${sep}cursor=${position(time, id)}`, { key });
        assert.equal(res.status, 400, `${path} ${time}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.details.field, 'cursor');
      }
    }
  });

  it('a cursor at a leap second (an imported time) is a position, not a 400', async () => {
    const cursor = Buffer.from('2016-12-31T23:59:60.000Z|snap_01M8H3FVYS9Y7ZS52TFGF0368V').toString('base64url');
    const res = await api.request('GET', `/v1/snapshots?cursor=${cursor}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, [], 'every snapshot here is newer');
  });

  it("a cursor from another list is a 400 naming cursor, not a page of this one's", async () => {
    const snapshots = await api.request('GET', '/v1/snapshots?limit=2&cursor=', { key });
    const edges = await api.request('GET', `/v1/edges?brain_id=${key.brainId}&limit=2&cursor=`, { key });
    assert.ok(snapshots.body.next_cursor && edges.body.next_cursor);
    for (const [path, cursor] of [
      [`/v1/edges?brain_id=${key.brainId}`, snapshots.body.next_cursor],
      ['/v1/memories', snapshots.body.next_cursor],
      ['/v1/snapshots', edges.body.next_cursor],
      ['/v1/captures', edges.body.next_cursor],
    ] as const) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await api.request('GET', `${path}${sep}cursor=${encodeURIComponent(cursor)}`, { key });
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.details.field, 'cursor');
    }
  });
});
