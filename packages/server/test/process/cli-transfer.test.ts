import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
// The made-up brain the transfer benchmark uses, written as `snapgraph export` would write it.
import { syntheticBrainId, writeSyntheticExport } from '../../../../bench/lib/export-file.mjs';
import { postgresAdminUrl, postgresReachable, testBackend } from '../helpers/database.js';
import {
  assertOneLineExit,
  BIN,
  childEnv,
  createKeyViaCli,
  suiteWorkspaces,
  runCli,
  SERVER_ROOT,
  sleep,
  startServer,
  type Workspace,
} from './helpers/process-harness.js';

/** Every line but the header, whose time (and list of sections) may differ. */
const body = (text: string) => text.slice(text.indexOf('\n') + 1);
const withoutExportTime = (text: string) => text.replace(/"exported_at":"[^"]*"/, '"exported_at":"…"');

/** The SIGKILL test's brain: N snapshots, 3N edges and 20 tombstones make 4N + 21 records. */
const KILL_SNAPSHOTS = 10_000;
const KILL_RECORDS = 4 * KILL_SNAPSHOTS + 21;

describe('snapgraph export and import (CLI)', () => {
  const fresh = suiteWorkspaces();

  it('import then export gives the same file; a second import changes nothing', async () => {
    const workspace = await fresh('transfer-round');
    const file = join(workspace.dir, 'brain.jsonl');
    await writeSyntheticExport(file, { snapshots: 500 });
    const imported = await runCli(workspace.databasePath, ['import', file]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, new RegExp(`^Imported 2021 records into ${syntheticBrainId}, ids kept\\.`));
    // Not a terminal: plain progress lines, no control characters.
    assert.match(imported.stderr, /^importing: 2021\/2021 records \(100%\)/m);
    // A real rate, never "0/s": the phase is timed from when the one before it ended.
    assert.match(imported.stderr, /^importing: 2021\/2021 records \(100%\), [1-9]\d*\/s/m);
    assert.doesNotMatch(imported.stderr, /\b0\/s/);
    assert.ok(!imported.stderr.includes('\u001b'), 'no terminal control sequences');

    const out = join(workspace.dir, 'out.jsonl');
    const exported = await runCli(workspace.databasePath, ['export', '--brain', syntheticBrainId, '--out', out]);
    assert.equal(exported.code, 0, exported.stderr);
    const original = readFileSync(file, 'utf8');
    const first = readFileSync(out, 'utf8');
    assert.equal(body(first), body(original));
    const toStdout = await runCli(workspace.databasePath, ['export', '--brain', syntheticBrainId]);
    assert.equal(withoutExportTime(toStdout.stdout), withoutExportTime(first));

    const again = await runCli(workspace.databasePath, ['import', file]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Nothing to do: this file was already imported/);
    // An export's own output imports as "already there" too: every row exists, none changes.
    const reimport = await runCli(workspace.databasePath, ['import', out, '--json']);
    assert.equal(reimport.code, 0, reimport.stderr);
    const after = await runCli(workspace.databasePath, ['export', '--brain', syntheticBrainId]);
    assert.equal(withoutExportTime(after.stdout), withoutExportTime(first));

    const graphml = await runCli(workspace.databasePath, [
      'export',
      '--brain',
      syntheticBrainId,
      '--format',
      'graphml',
    ]);
    assert.equal(graphml.code, 0, graphml.stderr);
    assert.equal(graphml.stdout.match(/<node /g)?.length, 500);
    assert.equal(graphml.stdout.match(/<edge /g)?.length, 1500);
  });

  it('export: --out a folder, or in a folder that does not exist, is a usage error; a reader that stops early ends it quietly', async () => {
    const workspace = await fresh('transfer-out');
    const file = join(workspace.dir, 'brain.jsonl');
    await writeSyntheticExport(file, { snapshots: 500 });
    assert.equal((await runCli(workspace.databasePath, ['import', file])).code, 0);
    const exportTo = (out: string) =>
      runCli(workspace.databasePath, ['export', '--brain', syntheticBrainId, '--out', out]);
    assertOneLineExit(
      await exportTo(workspace.dir),
      2,
      /^snapgraph: --out .* is a folder: give the file to write, such as .*brain\.jsonl$/,
    );
    assertOneLineExit(
      await exportTo(join(workspace.dir, 'nope', 'x.jsonl')),
      2,
      /^snapgraph: --out .*: the folder .*nope does not exist$/,
    );
    assertOneLineExit(await exportTo(join(workspace.dir, 'new') + '/'), 2, /^snapgraph: --out .*new\/ is a folder/);
    assert.equal((await exportTo('')).code, 2);
    assert.ok(!existsSync(`${workspace.dir}.partial`), 'nothing written beside the folder');

    // `snapgraph export … | head -1`: the reader closes the pipe after the first chunk of a
    // file far larger than the pipe holds.
    const child = spawn(process.execPath, [BIN, 'export', '--brain', syntheticBrainId], {
      cwd: SERVER_ROOT,
      env: childEnv(workspace.databasePath),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    assert.ok(!/EPIPE|snapgraph:/.test(stderr), stderr);
  });

  it('a file with bad lines: each reported as file:line: reason, exit 1, nothing imported', async () => {
    const workspace = await fresh('transfer-bad');
    const file = join(workspace.dir, 'brain.jsonl');
    await writeSyntheticExport(file, { snapshots: 10 });
    const lines = readFileSync(file, 'utf8').split('\n');
    // Line 4 has two problems; it still counts as one bad line.
    const fourth = JSON.parse(lines[3]!);
    fourth.data.type = 'Opinion';
    delete fourth.data.name;
    lines[3] = JSON.stringify(fourth);
    lines[13] = lines[13]!.slice(0, 30);
    const bad = join(workspace.dir, 'bad.jsonl');
    writeFileSync(bad, lines.slice(0, -5).join('\n'));
    const result = await runCli(workspace.databasePath, ['import', bad]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`^${bad}:4: snapshot: type must be one of: Belief, Model`, 'm'));
    assert.match(result.stderr, new RegExp(`^${bad}:4: snapshot: name `, 'm'));
    assert.match(result.stderr, new RegExp(`^${bad}:14: not valid JSON`, 'm'));
    assert.match(result.stderr, /:\d+: the file ends without its end line/);
    assert.match(result.stderr, /^snapgraph: the file has 3 bad line\(s\); nothing was imported$/m);
    const exported = await runCli(workspace.databasePath, ['export', '--brain', syntheticBrainId]);
    assert.equal(exported.code, 2);
    assert.match(exported.stderr, /brain .* not found/);
    const usage = await runCli(workspace.databasePath, ['export']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage: snapgraph export --brain/);
  });

  it('an import killed with SIGKILL resumes where it stopped and ends with the same brain', async () => {
    const workspace = await fresh('transfer-kill');
    const file = join(workspace.dir, 'brain.jsonl');
    // Nine batches of up to 5,000 rows (src/domain/transfer/import.ts): the kill lands after the first
    // commit with most of the file still to go, however slowly this machine polls.
    await writeSyntheticExport(file, { snapshots: KILL_SNAPSHOTS });
    await runCli(workspace.databasePath, ['migrate']);
    const child = spawn(process.execPath, [BIN, 'import', file], {
      cwd: SERVER_ROOT,
      env: { ...process.env, DATABASE_URL: workspace.databasePath, LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed as soon as the first batch has committed, well before the end.
    let done = 0;
    for (let tries = 0; tries < 6000 && done === 0; tries++) {
      done = await linesDone(workspace.databasePath);
      if (done === 0) await sleep(10);
    }
    child.kill('SIGKILL');
    await exited;
    assert.ok(done > 0, 'the import had committed a batch');
    const stopped = await linesDone(workspace.databasePath);
    assert.ok(stopped < KILL_RECORDS + 1, `killed before the end (at line ${stopped})`);

    const resumed = await runCli(workspace.databasePath, ['import', file, '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const result = JSON.parse(resumed.stdout);
    assert.equal(result.resumed_after_line, stopped);
    assert.equal(result.records, KILL_RECORDS);
    const exported = await runCli(workspace.databasePath, ['export', '--brain', syntheticBrainId]);
    assert.equal(body(exported.stdout), body(readFileSync(file, 'utf8')));

    // Counted and searchable once, whichever run wrote a row; and a write afterwards is too.
    const server = await startServer(workspace.databasePath);
    const { key } = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro', '--brain', syntheticBrainId]);
    const get = async (path: string) => {
      const response = await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200, path);
      return (await response.json()) as { data: Record<string, unknown>; count?: number };
    };
    const brain = await get(`/v1/brains/${syntheticBrainId}`);
    assert.equal(brain.data.snapshot_count, KILL_SNAPSHOTS);
    assert.equal(brain.data.edge_count, 3 * KILL_SNAPSHOTS);
    // One snapshot in ten is about curiosity (bench/lib/export-file.mjs), one in five a Rule.
    assert.equal(
      (await get(`/v1/snapshots/search?q=curiosity&graph=false&brain_id=${syntheticBrainId}`)).count,
      KILL_SNAPSHOTS / 10,
    );
    assert.equal((await get(`/v1/snapshots?brain_id=${syntheticBrainId}&type=Rule&limit=1`)).count, KILL_SNAPSHOTS / 5);
    const created = await fetch(`${server.baseUrl}/v1/snapshots`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the import', core: 'Zanzibar written afterwards', type: 'Model' }),
    });
    assert.equal(created.status, 201);
    assert.equal((await get(`/v1/snapshots/search?q=zanzibar&brain_id=${syntheticBrainId}`)).count, 1);
    assert.equal((await get(`/v1/brains/${syntheticBrainId}`)).data.snapshot_count, KILL_SNAPSHOTS + 1);
  });

  it(
    'moving a brain from SQLite to PostgreSQL: export, import, the same file and the same reads',
    { skip: testBackend !== 'sqlite' && 'runs once, in the SQLite run' },
    async (t) => {
      if (!(await postgresReachable())) return t.skip('PostgreSQL does not answer');
      const sqlite = await fresh('transfer-move');
      const postgres = await fresh('transfer-move-postgres', freshPostgres);
      const file = join(sqlite.dir, 'brain.jsonl');
      await writeSyntheticExport(file, { snapshots: 300 });
      assert.equal((await runCli(sqlite.databasePath, ['import', file])).code, 0);
      // What the guide says (docs/deployment.md): export from SQLite, import into PostgreSQL.
      const moved = join(sqlite.dir, 'moved.jsonl');
      assert.equal(
        (await runCli(sqlite.databasePath, ['export', '--brain', syntheticBrainId, '--out', moved])).code,
        0,
      );
      const imported = await runCli(postgres.databasePath, ['import', moved]);
      assert.equal(imported.code, 0, imported.stderr);
      const back = await runCli(postgres.databasePath, ['export', '--brain', syntheticBrainId]);
      assert.equal(withoutExportTime(back.stdout), withoutExportTime(readFileSync(moved, 'utf8')));

      const servers = await Promise.all([startServer(sqlite.databasePath), startServer(postgres.databasePath)]);
      const keys = await Promise.all(
        [sqlite, postgres].map((w) => createKeyViaCli(w.databasePath, ['--plan', 'pro', '--brain', syntheticBrainId])),
      );
      const snapshot = 'snap_01JGFJJZ0C000000000000000C';
      for (const path of [
        `/v1/brains/${syntheticBrainId}`,
        `/v1/snapshots?brain_id=${syntheticBrainId}&limit=100`,
        `/v1/snapshots?brain_id=${syntheticBrainId}&type=Rule&offset=20`,
        `/v1/snapshots/${snapshot}`,
        `/v1/edges?brain_id=${syntheticBrainId}&limit=200&edge_type=related_to`,
        `/v1/edges?snapshot_id=${snapshot}`,
        `/v1/snapshots/search?q=patience&brain_id=${syntheticBrainId}&limit=5`,
      ]) {
        const [a, b] = await Promise.all(
          servers.map(async (server, i) => {
            const response = await fetch(`${server.baseUrl}${path}`, {
              headers: { authorization: `Bearer ${keys[i]!.key}` },
            });
            return { status: response.status, body: await response.json() };
          }),
        );
        assert.equal(a!.status, 200, path);
        assert.deepEqual(b, a, path);
      }
    },
  );
});

/** Where the import stands, read from the database as the import writes it. */
async function linesDone(databasePath: string): Promise<number> {
  if (!/^postgres/.test(databasePath)) {
    const db = new Database(databasePath, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT max(lines_done) AS n FROM import_runs').get() as { n: number | null };
      return row.n ?? 0;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databasePath });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT coalesce(max(lines_done), 0)::int AS n FROM import_runs');
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

/** A fresh PostgreSQL database, whatever backend this run tests. */
async function freshPostgres(): Promise<Workspace> {
  const name = `snapgraph_test_move_${Math.random().toString(16).slice(2, 10)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: postgresAdminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return { dir: '', databasePath: url.toString(), remove: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
