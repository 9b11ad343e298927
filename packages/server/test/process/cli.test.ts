// The built CLI as a subprocess, against a server that is running on the same database.
import pg from 'pg';
import { testBackend } from '../helpers/database.js';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  call,
  createKeyViaCli,
  makeWorkspace,
  runCli,
  sleep,
  snapshotBody,
  startServer,
  stopAllServers,
  type CreatedKey,
  type ServerProcess,
  type Workspace,
} from './helpers/process-harness.js';

const KEY = /^sg_[A-Za-z0-9]{32,}$/;

/**
 * Everything the database holds about keys: for SQLite every file (the main file and any -wal /
 * -shm / -journal beside it), for PostgreSQL every api_keys row as text.
 */
async function databaseBytes(workspace: Workspace): Promise<Buffer> {
  if (testBackend === 'postgres') {
    const client = new pg.Client({ connectionString: workspace.databasePath });
    await client.connect();
    try {
      const { rows } = await client.query<{ all: string }>(
        "SELECT string_agg(row_to_json(k)::text, '') AS all FROM api_keys k",
      );
      return Buffer.from(rows[0]?.all ?? '', 'utf8');
    } finally {
      await client.end();
    }
  }
  const base = 'snapgraph.db';
  const files = readdirSync(workspace.dir).filter((name) => name.startsWith(base));
  assert.ok(files.includes(base), `expected ${base} in ${workspace.dir}, found ${files.join(', ')}`);
  return Buffer.concat(files.map((name) => readFileSync(join(workspace.dir, name))));
}

async function listKeysJson(databasePath: string): Promise<Record<string, unknown>[]> {
  const listed = await runCli(databasePath, ['keys', 'list', '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  const rows = JSON.parse(listed.stdout) as unknown;
  assert.ok(Array.isArray(rows), `keys list --json must print an array, got ${listed.stdout}`);
  return rows as Record<string, unknown>[];
}

describe('snapgraph CLI against a running server', () => {
  let workspace: Workspace;
  let server: ServerProcess;

  before(async () => {
    workspace = await makeWorkspace('cli');
    server = await startServer(workspace.databasePath);
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  it('keys create --json prints one JSON object (key, key_id, account_id, brain_id, plan) whose key works', async () => {
    const result = await runCli(workspace.databasePath, ['keys', 'create', '--plan', 'free', '--json']);
    assert.equal(result.code, 0, `exit ${result.code}: ${result.stderr}`);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 1, `expected exactly one line of JSON, got:\n${result.stdout}`);
    const printed = JSON.parse(lines[0] as string) as CreatedKey;
    assert.equal(typeof printed, 'object');
    assert.match(printed.key, KEY);
    assert.match(printed.key_id, /^key_[A-Za-z0-9_-]+$/);
    assert.match(printed.account_id, /^acct_[A-Za-z0-9_-]+$/);
    assert.match(printed.brain_id, /^brain_[A-Za-z0-9_-]+$/);
    assert.equal(printed.plan, 'free');

    // The server was already running when the key was made: it works at once.
    const listed = await call(server.baseUrl, 'GET', '/v1/snapshots', { key: printed.key });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body, { data: [], count: 0 });
  });

  it('keys list shows the key id and prefix but never the full key', async () => {
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    const human = await runCli(workspace.databasePath, ['keys', 'list']);
    assert.equal(human.code, 0, human.stderr);
    const line = human.stdout.split('\n').find((l) => l.includes(key.key_id));
    assert.ok(line, `keys list does not show ${key.key_id}:\n${human.stdout}`);
    assert.ok(line.includes(key.key.slice(0, 7)), `keys list does not show the key's prefix:\n${line}`);

    const rows = await listKeysJson(workspace.databasePath);
    const row = rows.find((r) => r.key_id === key.key_id);
    assert.ok(row, `keys list --json does not include ${key.key_id} as key_id (the name keys create gives it)`);
    assert.equal(row.id, key.key_id);
    assert.equal(typeof row.prefix, 'string');
    const prefix = row.prefix as string;
    assert.ok(key.key.startsWith(prefix) && prefix.length >= 7, `prefix ${prefix} is not a prefix of the key`);
    assert.ok(prefix.length < key.key.length, 'the prefix is the whole key');

    for (const [name, output] of [
      ['keys list', human.stdout + human.stderr],
      ['keys list --json', JSON.stringify(rows)],
    ] as const) {
      assert.ok(!output.includes(key.key), `${name} prints the full key`);
      assert.ok(!output.includes(key.key.slice(-16)), `${name} prints the end of the key`);
    }
  });

  it('keys revoke <key_id> makes that key get 401 on the running server at once (PostgreSQL: on the notification)', async () => {
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    const bystander = await createKeyViaCli(workspace.databasePath, ['--plan', 'free', '--brain', key.brain_id]);
    const before = await call(server.baseUrl, 'GET', '/v1/snapshots', { key: key.key });
    assert.equal(before.status, 200, before.text);

    const revoked = await runCli(workspace.databasePath, ['keys', 'revoke', key.key_id]);
    assert.equal(revoked.code, 0, revoked.stderr);

    // SQLite: the next request sees the change (data_version). PostgreSQL: another process's
    // change reaches the server's key cache by NOTIFY, which a loaded machine may deliver a
    // little after the next request (store/postgres/key-cache.ts); it must arrive well within
    // a second.
    const deadline = Date.now() + (testBackend === 'postgres' ? 1000 : 0);
    let afterRevoke = await call(server.baseUrl, 'GET', '/v1/snapshots', { key: key.key });
    while (afterRevoke.status === 200 && Date.now() < deadline) {
      await sleep(20);
      afterRevoke = await call(server.baseUrl, 'GET', '/v1/snapshots', { key: key.key });
    }
    assert.equal(afterRevoke.status, 401, afterRevoke.text);
    assert.equal(afterRevoke.body?.error?.code, 'UNAUTHORIZED');
    // Other keys are untouched.
    const other = await call(server.baseUrl, 'GET', '/v1/snapshots', { key: bystander.key });
    assert.equal(other.status, 200, other.text);
  });

  it('keys revoke --json prints the revoked record, without the hash; revoking again keeps the first time', async () => {
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    const first = await runCli(workspace.databasePath, ['keys', 'revoke', key.key_id, '--json']);
    assert.equal(first.code, 0, first.stderr);
    const record = JSON.parse(first.stdout);
    assert.equal(record.id, key.key_id);
    assert.equal(record.key_id, key.key_id);
    assert.match(record.revoked_at, /^\d{4}-\d\d-\d\dT/);
    assert.equal(record.key_hash, undefined);
    const again = await runCli(workspace.databasePath, ['keys', 'revoke', key.key_id, '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).revoked_at, record.revoked_at);
  });

  it('keys create --brain gives a second key on the same account and brain that sees the same snapshots', async () => {
    const owner = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro']);
    const created = await call(server.baseUrl, 'POST', '/v1/snapshots', {
      key: owner.key,
      body: snapshotBody({ name: 'Shared across keys' }),
    });
    assert.equal(created.status, 201, created.text);

    const second = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro', '--brain', owner.brain_id]);
    assert.match(second.key, KEY);
    assert.notEqual(second.key, owner.key);
    assert.notEqual(second.key_id, owner.key_id);
    assert.equal(second.account_id, owner.account_id);
    assert.equal(second.brain_id, owner.brain_id);

    const read = await call(server.baseUrl, 'GET', `/v1/snapshots/${created.body.data.id}`, { key: second.key });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.data, created.body.data);
    const listed = await call(server.baseUrl, 'GET', '/v1/snapshots', { key: second.key });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      listed.body.data.map((s: { id: string }) => s.id),
      [created.body.data.id],
    );
  });

  it('brains create --account --name makes a brain that brains list shows', async () => {
    const owner = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro']);
    const name = 'Research notes';
    const created = await runCli(workspace.databasePath, [
      'brains',
      'create',
      '--account',
      owner.account_id,
      '--name',
      name,
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const brain = JSON.parse(created.stdout) as { id: string; name: string; account_id: string };
    assert.match(brain.id, /^brain_[A-Za-z0-9_-]+$/);
    assert.notEqual(brain.id, owner.brain_id);
    assert.equal(brain.name, name);
    assert.equal(brain.account_id, owner.account_id);

    const listedJson = await runCli(workspace.databasePath, ['brains', 'list', '--json']);
    assert.equal(listedJson.code, 0, listedJson.stderr);
    const rows = JSON.parse(listedJson.stdout) as { id: string; name: string; account_id: string }[];
    const row = rows.find((r) => r.id === brain.id);
    assert.ok(row, `brains list --json does not include ${brain.id}`);
    assert.equal(row.name, name);
    assert.equal(row.account_id, owner.account_id);

    const listed = await runCli(workspace.databasePath, ['brains', 'list']);
    assert.equal(listed.code, 0, listed.stderr);
    const line = listed.stdout.split('\n').find((l) => l.includes(brain.id));
    assert.ok(line, `brains list does not show ${brain.id}:\n${listed.stdout}`);
    assert.ok(line.includes(name), `brains list does not show the name:\n${line}`);

    // The account's key sees the new brain through the API as well.
    const viaApi = await call(server.baseUrl, 'GET', `/v1/brains/${brain.id}`, { key: owner.key });
    assert.equal(viaApi.status, 200, viaApi.text);
    assert.equal(viaApi.body.data.name, name);
  });

  it('keys create --plan enterprise --rpm 600 --burst 50 stores the limits shown by keys list --json', async () => {
    const key = await createKeyViaCli(workspace.databasePath, [
      '--plan',
      'enterprise',
      '--rpm',
      '600',
      '--burst',
      '50',
    ]);
    assert.equal(key.plan, 'enterprise');
    const rows = await listKeysJson(workspace.databasePath);
    const row = rows.find((r) => r.key_id === key.key_id);
    assert.ok(row, `keys list --json does not include ${key.key_id} as key_id (the name keys create gives it)`);
    assert.equal(row.id, key.key_id);
    assert.equal(row.plan, 'enterprise');
    assert.equal(row.rpm, 600);
    assert.equal(row.burst, 50);
    const works = await call(server.baseUrl, 'GET', '/v1/snapshots', { key: key.key });
    assert.equal(works.status, 200, works.text);
  });

  it('--rpm on a free plan fails with a non-zero exit and a message, creating no key', async () => {
    const before = await listKeysJson(workspace.databasePath);
    const result = await runCli(workspace.databasePath, ['keys', 'create', '--plan', 'free', '--rpm', '600', '--json']);
    assert.notEqual(result.code, 0, `expected failure, got exit 0 with ${result.stdout}`);
    assert.match(result.stderr, /rpm|enterprise/i, `no explanation on stderr: ${JSON.stringify(result.stderr)}`);
    assert.doesNotMatch(result.stdout, /sg_[A-Za-z0-9]{32,}/, 'a key was printed');
    const afterwards = await listKeysJson(workspace.databasePath);
    assert.equal(afterwards.length, before.length, 'a key was created anyway');
  });

  it('an unknown command exits non-zero and prints the usage', async () => {
    const result = await runCli(workspace.databasePath, ['frobnicate']);
    assert.notEqual(result.code, 0);
    const output = result.stderr + result.stdout;
    assert.match(output, /frobnicate/, 'does not name the unknown command');
    assert.match(output, /usage/i);
    for (const command of ['serve', 'migrate', 'keys create', 'brains create']) {
      assert.ok(output.includes(command), `usage does not mention "${command}"`);
    }
  });
});

describe('snapgraph migrate', () => {
  const workspaces: Workspace[] = [];
  after(() => Promise.all(workspaces.map((w) => w.remove())));

  it('on a fresh database applies the migrations (and does not claim it was already up to date)', async () => {
    const workspace = await makeWorkspace('migrate-fresh');
    workspaces.push(workspace);
    const result = await runCli(workspace.databasePath, ['migrate']);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /up to date/i, `a fresh database reported: ${result.stdout.trim()}`);
    assert.match(result.stdout, /appl/i, `expected a report of applied migrations, got: ${result.stdout.trim()}`);
    if (testBackend === 'sqlite') {
      assert.ok(readdirSync(workspace.dir).includes('snapgraph.db'), 'no database file was created');
    }
  });

  it('run twice succeeds both times, the second saying the database is up to date', async () => {
    const workspace = await makeWorkspace('migrate-twice');
    workspaces.push(workspace);
    const firstRun = await runCli(workspace.databasePath, ['migrate']);
    assert.equal(firstRun.code, 0, firstRun.stderr);
    const secondRun = await runCli(workspace.databasePath, ['migrate']);
    assert.equal(secondRun.code, 0, secondRun.stderr);
    assert.match(secondRun.stdout, /up to date/i);
    // The migrated database is usable by the other commands.
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    assert.match(key.key, KEY);
  });
});

describe('key storage', () => {
  let workspace: Workspace;
  before(async () => {
    workspace = await makeWorkspace('key-storage');
  });
  after(() => workspace?.remove());

  it('the database file never holds a key in plain text', async () => {
    const keys = [
      await createKeyViaCli(workspace.databasePath, ['--plan', 'free']),
      await createKeyViaCli(workspace.databasePath, ['--plan', 'enterprise', '--rpm', '100', '--burst', '10']),
    ];
    const second = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro', '--brain', keys[0]!.brain_id]);
    keys.push(second);
    const bytes = await databaseBytes(workspace);
    assert.ok(bytes.includes(Buffer.from(second.key_id)), 'sanity: the key records are in the files read');
    for (const { key } of keys) {
      assert.ok(
        !bytes.includes(Buffer.from(key, 'utf8')),
        `the database holds the key ${key.slice(0, 7)}… in plain text`,
      );
      assert.ok(
        !bytes.includes(Buffer.from(key.slice(3), 'utf8')),
        'the database holds the key without its sg_ prefix',
      );
      assert.ok(!bytes.includes(Buffer.from(key, 'utf16le')), 'the database holds the key as UTF-16');
    }
  });
});
