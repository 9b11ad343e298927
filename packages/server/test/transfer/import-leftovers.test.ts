import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectTestApi, startTestApi, type TestApi } from '../helpers/harness.js';

/** What a killed server leaves in IMPORT_DIR is removed at the next start; a file a job waits for is kept. */
describe('import uploads left behind', () => {
  let dir: string;
  let api: TestApi | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-leftovers-'));
  });
  after(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes cut-off uploads (an hour old) and files no job names, and keeps the rest', async () => {
    const hoursAgo = (path: string, hours: number) => {
      const then = new Date(Date.now() - hours * 3_600_000);
      utimesSync(path, then, then);
    };
    const oldPart = join(dir, 'acct_01JDQ8YF3K2M4N6P8Q0R2S4T6V.aa.ndjson.part');
    const freshPart = join(dir, 'acct_01JDQ8YF3K2M4N6P8Q0R2S4T6V.bb.ndjson.part');
    const orphan = join(dir, 'acct_01JDQ8YF3K2M4N6P8Q0R2S4T6V.cc.ndjson');
    for (const path of [oldPart, freshPart, orphan]) writeFileSync(path, '{}\n');
    hoursAgo(oldPart, 2);
    api = await startTestApi({ backgroundWork: false, imports: { maxBytes: 1024 * 1024, dir } });
    // A file a queued job (no runner here) will read stays.
    const key = await api.newKey();
    const queued = await api.request('POST', '/v1/brains/import', {
      key,
      rawBody: '{}\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(queued.status, 202);
    const wanted = readdirSync(dir).filter((name) => name.startsWith(key.accountId));
    assert.equal(wanted.length, 1);

    // A second process on the same database starts (the first one is "killed": still open here).
    const again = await connectTestApi(api.databasePath, { backgroundWork: false, imports: { maxBytes: 1024, dir } });
    try {
      for (let i = 0; i < 200 && (existsSync(orphan) || existsSync(oldPart)); i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.equal(existsSync(oldPart), false, 'an upload cut off an hour ago');
      assert.equal(existsSync(orphan), false, 'a file no job names');
      assert.equal(existsSync(freshPart), true, 'an upload that may still be arriving (another instance)');
      assert.equal(existsSync(join(dir, wanted[0] as string)), true, 'the queued job’s file');
    } finally {
      await again.close();
    }
  });
});
