// `snapgraph backup` (design §16.5) driven as an operator would: the built CLI as a subprocess
// beside a real server taking writes over HTTP, and the backup restored as docs/deployment.md
// says (a file copy, the server stopped) and served by a fresh server.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { writeSyntheticExport } from '../../../../bench/lib/export-file.mjs';
import { testBackend } from '../helpers/database.js';
import {
  assertOneLineExit,
  call,
  runCli,
  sleep,
  snapshotBody,
  startServer,
  suiteWorkspaces,
  unlimitedKey,
  type CliResult,
} from './helpers/process-harness.js';

interface Acknowledged {
  id: string;
  name: string;
}

describe('snapgraph backup on SQLite', { skip: testBackend !== 'sqlite' && 'SQLite only' }, () => {
  const fresh = suiteWorkspaces();

  it('copies the database while the server writes: the copy is whole and holds every write acknowledged before it began', async () => {
    const workspace = await fresh('backup-live');
    // Thousands of rows first, so that the copy takes many steps while the writes go on.
    const seed = join(workspace.dir, 'seed.jsonl');
    await writeSyntheticExport(seed, { snapshots: 3000 });
    assert.equal((await runCli(workspace.databasePath, ['import', seed])).code, 0);
    const key = await unlimitedKey(workspace.databasePath);
    const server = await startServer(workspace.databasePath);

    const acknowledged: Acknowledged[] = [];
    let writing = true;
    const writer = async (lane: number) => {
      for (let n = 0; writing; n++) {
        const name = `write ${lane}-${n}`;
        const created = await call(server.baseUrl, 'POST', '/v1/snapshots', {
          key: key.key,
          body: snapshotBody({ name, core: `Acknowledged write ${lane}-${n}` }),
        });
        assert.equal(created.status, 201, created.text);
        acknowledged.push({ id: created.body.data.id as string, name });
      }
    };
    const writers = [0, 1, 2].map(writer);
    while (acknowledged.length < 30) await sleep(10);

    const before = [...acknowledged];
    const backupFile = join(workspace.dir, 'backup.db');
    const backup = await runCli(workspace.databasePath, ['backup', backupFile, '--json']);
    const duringBackup = acknowledged.length - before.length;
    while (acknowledged.length < before.length + duringBackup + 10) await sleep(10);
    writing = false;
    await Promise.all(writers);
    await server.stop();

    assert.equal(backup.code, 0, backup.stderr);
    assert.ok(duringBackup > 0, 'writes were acknowledged while the backup ran');
    const report = JSON.parse(backup.stdout);
    assert.equal(report.file, backupFile);
    assert.equal(report.bytes, statSync(backupFile).size);
    assert.ok(!backup.stderr.includes('\u001b'), 'no progress bar when standard error is not a terminal');

    const copy = new Database(backupFile, { readonly: true });
    try {
      assert.deepEqual(copy.pragma('integrity_check', { simple: true }), 'ok');
      const rows = copy.prepare('SELECT count(*) AS n FROM snapshots').get() as { n: number };
      assert.ok(rows.n >= 3000 + before.length && rows.n <= 3000 + acknowledged.length, `${rows.n} snapshots`);
    } finally {
      copy.close();
    }

    // Restore: copy the file where a server's DATABASE_URL points, with no server running on it.
    const restoredDir = mkdtempSync(join(tmpdir(), 'snapgraph-restored-'));
    try {
      const restored = join(restoredDir, 'snapgraph.db');
      copyFileSync(backupFile, restored);
      const again = await startServer(restored);
      for (const { id, name } of before) {
        const read = await call(again.baseUrl, 'GET', `/v1/snapshots/${id}`, { key: key.key });
        assert.equal(read.status, 200, `${id}: ${read.text}`);
        assert.equal(read.body.data.name, name);
      }
      await again.stop();
    } finally {
      rmSync(restoredDir, { recursive: true, force: true });
    }
  });

  it('never replaces a file without --force; with it, replaces it whole', async () => {
    const workspace = await fresh('backup-force');
    await unlimitedKey(workspace.databasePath);
    const target = join(workspace.dir, 'taken.db');
    writeFileSync(target, 'precious');

    const refused = await runCli(workspace.databasePath, ['backup', target]);
    assertOneLineExit(refused, 2, /^snapgraph: .*taken\.db already exists: pass --force to replace it$/);
    assert.equal(readFileSync(target, 'utf8'), 'precious');

    const forced = await runCli(workspace.databasePath, ['backup', target, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(
      forced.stdout,
      /^Backed up .* to .*taken\.db: [\d.]+ MB in [\d.]+ s, holding every write made before /,
    );
    const copy = new Database(target, { readonly: true });
    assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
    copy.close();
  });

  it('refuses clearly: no file named, a folder that does not exist, no database', async () => {
    const workspace = await fresh('backup-usage');
    assertOneLineExit(
      await runCli(workspace.databasePath, ['backup']),
      2,
      /^snapgraph: usage: snapgraph backup <file>/,
    );
    const missing = await runCli(join(workspace.dir, 'none.db'), ['backup', join(workspace.dir, 'b.db')]);
    assertOneLineExit(missing, 2, /^snapgraph: there is no SQLite database at .*none\.db/);
    await unlimitedKey(workspace.databasePath);
    const nowhere = await runCli(workspace.databasePath, ['backup', join(workspace.dir, 'no', 'such', 'b.db')]);
    assertOneLineExit(nowhere, 2, /^snapgraph: the folder .* does not exist$/);
  });
});

describe('snapgraph backup on PostgreSQL', { skip: testBackend !== 'postgres' && 'PostgreSQL only' }, () => {
  const fresh = suiteWorkspaces();

  it('makes no file and prints the pg_dump command to use, never the password', async () => {
    const workspace = await fresh('backup-pg');
    const url = new URL(workspace.databasePath);
    url.password = 's3cret';
    const result: CliResult = await runCli(url.toString(), ['backup', 'snapgraph.dump']);
    assertOneLineExit(result, 2, /^snapgraph: backup copies the SQLite database only; on PostgreSQL use pg_dump/);
    assert.match(result.stdout, /^pg_dump --format=custom --file=snapgraph\.dump 'postgres:\/\/postgres:<password>@/);
    assert.ok(!`${result.stdout}${result.stderr}`.includes('s3cret'));
    const json = await runCli(url.toString(), ['backup', 'snapgraph.dump', '--json']);
    assert.equal(json.code, 2);
    assert.match(JSON.parse(json.stdout).restore, /^pg_restore /);
  });
});
