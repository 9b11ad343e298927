import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { AppError } from '../../src/errors.js';
import { GroupCommit } from '../../src/store/sqlite/group-commit.js';
import { openSqliteDatabase } from '../../src/store/sqlite/open-database.js';
import { testBackend } from '../helpers/database.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/**
 * Issue 46: while another connection holds SQLite's write lock (the large-write worker, the CLI),
 * the request thread never waits for it: other requests are answered, the write waits its turn
 * and succeeds, and one that cannot get the lock in time is a 503 with Retry-After, never a 500.
 */
describe('writes while another connection holds the lock (SQLite)', { skip: testBackend !== 'sqlite' }, () => {
  let api: TestApi;
  let key: TestKey;
  let other: Database.Database;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
    other = new Database(join(api.dir, 'snapgraph.db'));
  });
  after(async () => {
    other.close();
    await api.close();
  });

  it('a write waits off the event loop: /healthz answers meanwhile, and the write succeeds once the lock is free', async () => {
    // A first write loads what writes use (the compute threads), so the next reaches the database at once.
    const first = await api.request('POST', '/v1/snapshots', { key, body: { name: 'First', core: 'A write first' } });
    assert.equal(first.status, 201);
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const write = api
      .request('POST', '/v1/snapshots', { key, body: { name: 'Waiting', core: 'A write behind a held lock' } })
      .finally(() => (settled = true));
    try {
      // Time for the write to reach the database and find the lock taken.
      await sleep(200);
      const health = await api.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.equal(settled, false, 'the write was still waiting for the lock when /healthz answered');
    } finally {
      other.exec('COMMIT');
    }
    const created = await write;
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const read = await api.request('GET', `/v1/snapshots/${created.body.data.id}`, { key });
    assert.equal(read.status, 200);
  });

  it('a write that cannot get the lock in time fails with SERVICE_UNAVAILABLE and a retry delay, and writes nothing', async () => {
    const db = openSqliteDatabase(join(api.dir, 'snapgraph.db'), { busyTimeoutMs: 0 });
    const writes = new GroupCommit(db, 50);
    other.exec('BEGIN IMMEDIATE');
    try {
      const refused = await writes
        .run(() =>
          db
            .prepare("INSERT INTO accounts (id, created_at) VALUES ('acct_lockedxxxxxx', '2026-01-01T00:00:00.000Z')")
            .run(),
        )
        .then(
          () => assert.fail('written'),
          (err: unknown) => err,
        );
      assert.ok(refused instanceof AppError, String(refused));
      assert.equal(refused.status, 503);
      assert.equal(refused.code, 'SERVICE_UNAVAILABLE');
      assert.equal(refused.details?.retry_after, 1);
      const alone = await writes
        .runAlone(() => 'ran')
        .then(
          () => assert.fail('ran'),
          (err: unknown) => err,
        );
      assert.ok(alone instanceof AppError && alone.status === 503, String(alone));
    } finally {
      other.exec('COMMIT');
    }
    assert.equal(
      (db.prepare("SELECT count(*) AS n FROM accounts WHERE id = 'acct_lockedxxxxxx'").get() as { n: number }).n,
      0,
    );
    // Once the lock is free, the same queue writes again.
    assert.equal(await writes.run(() => 'written'), 'written');
    db.close();
  });
});
