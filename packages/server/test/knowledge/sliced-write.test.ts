import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { testBackend } from '../helpers/database.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { prose } from '../compute/prose.js';
import { SLICE_ROWS } from '../../src/store/sqlite/sliced-writes.js';

const countOf = (db: Database.Database, sql: string, ...params: string[]) =>
  (db.prepare(sql).get(...params) as { n: number }).n;

/**
 * Issue 46: on SQLite a large write commits in short slices (store/sqlite/sliced-writes.ts), so
 * other writes take the lock in between instead of waiting for the whole write; a write that
 * fails part way leaves nothing of itself behind.
 */
describe('a large write in slices (SQLite)', { skip: testBackend !== 'sqlite' }, () => {
  let api: TestApi;
  let writer: TestKey;
  let other: TestKey;
  let db: Database.Database;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    writer = await api.newKey();
    other = await api.newKey();
    db = new Database(join(api.dir, 'snapgraph.db'));
  });
  after(async () => {
    db.close();
    await api.close();
  });

  it('another connection gets the write lock in the middle of a large ingest, and another account writes meanwhile', async () => {
    // The first write loads what writes use, so the measured one reaches the database at once.
    assert.equal(
      (await api.request('POST', '/v1/snapshots', { key: other, body: { name: 'Warm', core: 'x' } })).status,
      201,
    );
    let answered = false;
    const ingest = api
      .request('POST', '/v1/specific-knowledge/ingest', {
        key: writer,
        body: { source_type: 'document', title: 'A long document', content: prose(150_000, 7) },
      })
      .finally(() => (answered = true));
    // Try for the lock without waiting (busy_timeout 0), as the request thread does, until a try
    // lands between two slices: part of the document's entries written, the rest not yet.
    db.pragma('busy_timeout = 0');
    const entriesSoFar = `SELECT count(*) AS n FROM knowledge_entries WHERE account_id = ?`;
    let seenPart: number | undefined;
    const smallWrites: Promise<{ status: number }>[] = [];
    for (let tries = 0; !answered && seenPart === undefined; tries++) {
      if (tries % 10 === 0)
        smallWrites.push(
          api.request('POST', '/v1/snapshots', {
            key: other,
            body: { name: 'Small', core: 'A small write meanwhile' },
          }),
        );
      try {
        db.exec('BEGIN IMMEDIATE');
        const n = countOf(db, entriesSoFar, writer.accountId);
        db.exec('COMMIT');
        if (n > 0) seenPart = n;
      } catch (err) {
        if (!String((err as { code?: string }).code).startsWith('SQLITE_BUSY')) throw err;
      }
      await sleep(5);
    }
    const res = await ingest;
    assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 300));
    const total = res.body.data.entries.length;
    assert.ok(total > SLICE_ROWS, `only ${total} entries: too few for several slices`);
    assert.ok(
      seenPart !== undefined && seenPart < total,
      `the lock was never free while the ingest was under way (saw ${seenPart} of ${total} entries)`,
    );
    for (const small of await Promise.all(smallWrites)) assert.equal(small.status, 201);

    // The whole document, in its order.
    const source = await api.request('GET', `/v1/specific-knowledge/sources/${res.body.data.source_id}`, {
      key: writer,
    });
    assert.deepEqual(
      source.body.data.entries.map((e: { id: string }) => e.id),
      res.body.data.entries.map((e: { id: string }) => e.id),
    );
  });

  it('a large ingest that fails part way leaves nothing of itself behind', async () => {
    const failing = await api.newKey();
    const sourcesBefore = countOf(db, 'SELECT count(*) AS n FROM knowledge_sources');
    const snapshotsBefore = countOf(db, 'SELECT count(*) AS n FROM snapshots WHERE account_id = ?', failing.accountId);
    // A failure the database itself raises at the 300th entry, several slices into the write.
    db.exec(`CREATE TRIGGER fail_late AFTER INSERT ON knowledge_entries WHEN NEW.position = 300
             BEGIN SELECT RAISE(ABORT, 'failing on purpose'); END`);
    try {
      const res = await api.request('POST', '/v1/specific-knowledge/ingest', {
        key: failing,
        body: { source_type: 'document', title: 'A document that fails', content: prose(150_000, 8) },
      });
      assert.equal(res.status, 500, JSON.stringify(res.body).slice(0, 300));
    } finally {
      db.exec('DROP TRIGGER fail_late');
    }
    assert.equal(countOf(db, 'SELECT count(*) AS n FROM knowledge_sources'), sourcesBefore);
    assert.equal(countOf(db, 'SELECT count(*) AS n FROM knowledge_entries WHERE account_id = ?', failing.accountId), 0);
    assert.equal(
      countOf(db, 'SELECT count(*) AS n FROM snapshots WHERE account_id = ?', failing.accountId),
      snapshotsBefore,
    );
    const listed = await api.request('GET', '/v1/specific-knowledge/sources', { key: failing });
    assert.equal(listed.status, 200);
    assert.equal(listed.body.data.length, 0);
  });
});
