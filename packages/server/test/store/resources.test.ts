// The Store contract on the suite's backend (run it on both: SNAPGRAPH_TEST_BACKEND=postgres):
// keys, brains, snapshots, edges and jobs, through the Store interface alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { AT, edgeBetween, openTestStore, snapshotIn, testId, type OpenedStore } from './support.js';

let opened: OpenedStore;
before(async () => {
  opened = await openTestStore();
});
after(() => opened.close());

const page = { limit: 50, offset: 0 };

describe('store.keys', () => {
  it('provisions a key, finds it by hash (now and later), updates and counts it', async () => {
    const { store, accountId, brain } = opened;
    const key = {
      id: testId('key'),
      account_id: accountId,
      brain_id: brain.id,
      key_hash: testId('hash'),
      prefix: 'sg_test',
      plan: 'free' as const,
      rpm: null,
      burst: null,
      created_at: AT,
      revoked_at: null,
    };
    const activeBefore = await store.keys.countActive();
    await store.keys.provision({ key });
    assert.deepEqual(await store.keys.findByHash(key.key_hash), key);
    const now = store.keys.findByHashNow(key.key_hash);
    assert.ok(now === undefined || now.id === key.id, 'findByHashNow answers the key or "ask findByHash"');
    assert.equal(await store.keys.findByHash('no such hash'), undefined);
    assert.equal(await store.keys.countActive(), activeBefore + 1);
    const revoked = await store.keys.update(key.id, (current) => ({ ...current, revoked_at: AT }));
    assert.equal(revoked?.revoked_at, AT);
    assert.equal(await store.keys.countActive(), activeBefore);
    assert.deepEqual(
      (await store.keys.list(accountId)).map((k) => k.id),
      [key.id],
    );
    assert.equal((await store.keys.getAccount(accountId))?.id, accountId);
  });
});

describe('store.brains', () => {
  it('reads a brain with its counts, only in its own account', async () => {
    const { store, accountId, brain } = opened;
    const found = await store.brains.get(accountId, brain.id);
    assert.equal(found?.name, brain.name);
    assert.equal(typeof found?.snapshot_count, 'number');
    assert.equal(await store.brains.get('acct_other', brain.id), undefined);
    assert.equal(await store.brains.has(accountId, brain.id), true);
    assert.equal(await store.brains.has('acct_other', brain.id), false);
    assert.equal((await store.brains.getUnscoped(brain.id))?.id, brain.id);
    const renamed = await store.brains.update(accountId, brain.id, (current) => ({ ...current, name: 'Renamed' }));
    assert.equal(renamed?.name, 'Renamed');
    const listed = await store.brains.list(accountId, page);
    assert.deepEqual(
      listed.rows.map((b) => b.id),
      [brain.id],
    );
  });
});

describe('store.snapshots and store.edges', () => {
  it('writes, reads as a row and as JSON, lists, updates and deletes (the edges with it)', async () => {
    const { store, accountId, brain } = opened;
    const a = snapshotIn(brain.id, { tags: ['growth'] });
    const b = snapshotIn(brain.id, { name: 'Patience', type: 'Principle' });
    await store.snapshots.insert(accountId, a);
    await store.snapshots.insert(accountId, b);
    assert.deepEqual(await store.snapshots.get(accountId, a.id), a);
    assert.equal(await store.snapshots.get('acct_other', a.id), undefined);
    assert.equal(JSON.parse((await store.snapshots.getJson(accountId, a.id)) as string).id, a.id);
    await assert.rejects(store.snapshots.insert(accountId, a), AppError);

    const byTag = await store.snapshots.list({ brainId: brain.id, tag: 'growth', ...page });
    assert.deepEqual(
      byTag.rows.map((row) => JSON.parse(row.json).id),
      [a.id],
    );
    assert.equal((await store.brains.get(accountId, brain.id))?.snapshot_count, 2);

    const edge = edgeBetween(brain.id, a.id, b.id);
    await store.edges.insert(accountId, edge);
    assert.deepEqual(await store.edges.get(accountId, edge.id), edge);
    await assert.rejects(store.edges.insert(accountId, { ...edge, id: testId('edge') }), (err: AppError) => {
      return err.code === 'CONFLICT';
    });
    const edges = await store.edges.list({ accountId, scope: { snapshotId: a.id }, minStrength: 0, ...page });
    assert.deepEqual(
      edges?.rows.map((row) => JSON.parse(row.json).id),
      [edge.id],
    );
    const weaker = await store.edges.update(accountId, edge.id, (current) => ({ ...current, strength: 0.2 }));
    assert.equal(weaker?.strength, 0.2);

    const updated = await store.snapshots.update(accountId, b.id, (current) => ({ ...current, core: 'Wait' }));
    assert.equal(updated?.core, 'Wait');
    assert.equal(await store.snapshots.delete(accountId, a.id, AT), true);
    assert.equal(await store.snapshots.get(accountId, a.id), undefined);
    assert.equal(await store.edges.get(accountId, edge.id), undefined, 'the edge went with its snapshot');
    assert.equal(await store.snapshots.delete(accountId, a.id, AT), false);
  });
});

describe('store.jobs', () => {
  it('queues a job, lets one runner claim it, and keeps its outcome', async () => {
    const { store, accountId } = opened;
    const job = {
      id: testId('job'),
      account_id: accountId,
      key_id: 'key_x',
      kind: 'store-suite',
      input: '{}',
      created_at: AT,
    };
    await store.jobs.insert(job);
    assert.equal((await store.jobs.get(accountId, job.id))?.status, 'queued');
    const claimed = await store.jobs.claim('runner-1', ['store-suite'], 5, 30_000, AT);
    assert.deepEqual(
      claimed.map((j) => j.id),
      [job.id],
    );
    assert.deepEqual(await store.jobs.claim('runner-2', ['store-suite'], 5, 30_000, AT), [], 'claimed once');
    const progress = { phase: 'done', done: 1, total: 1 };
    assert.equal(
      await store.jobs.finish(job.id, 'runner-2', { status: 'succeeded', result: '{}' }, progress, AT),
      false,
    );
    assert.equal(
      await store.jobs.finish(job.id, 'runner-1', { status: 'succeeded', result: '{}' }, progress, AT),
      true,
    );
    const done = await store.jobs.get(accountId, job.id);
    assert.equal(done?.status, 'succeeded');
    assert.equal(done?.result, '{}');
    const listed = await store.jobs.list(accountId, { status: 'succeeded' }, page);
    assert.deepEqual(
      listed.rows.map((j) => j.id),
      [job.id],
    );
  });
});
