// Settings and arguments that are wrong: refused before anything starts, in one line, exit 2
// (README "CLI"), never a stack trace from deep inside or a setting quietly read another way.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  assertOneLineExit,
  createKeyViaCli,
  makeWorkspace,
  runCli,
  startServer,
  stopAllServers,
  type CliResult,
  type Workspace,
} from './helpers/process-harness.js';
import { testBackend } from '../helpers/database.js';

// Refusals made before any database is opened: the same on either store, so they run in the
// SQLite pass (scripts/run-tests.mjs, ONE_BACKEND_ONLY).
describe('snapgraph: bad settings and arguments', { skip: testBackend !== 'sqlite' }, () => {
  let workspace: Workspace;
  before(async () => {
    workspace = await makeWorkspace('cli-usage');
  });
  after(async () => {
    await stopAllServers();
    await workspace.remove();
  });

  const assertRefused = (result: CliResult, pattern: RegExp) => assertOneLineExit(result, 2, pattern);

  const badSettings: [string, Record<string, string>, RegExp][] = [
    ['PORT in hexadecimal', { PORT: '0x1F90' }, /^snapgraph: invalid configuration: PORT .*decimal/],
    ['PORT with an exponent', { PORT: '8e3' }, /^snapgraph: invalid configuration: PORT /],
    ['a limit with spaces around it', { ANON_RATE_LIMIT_PER_SECOND: ' 10 ' }, /ANON_RATE_LIMIT_PER_SECOND/],
    [
      'TRUST_PROXY that is no address',
      { TRUST_PROXY: 'yes' },
      /^snapgraph: invalid configuration: TRUST_PROXY .*"yes"/,
    ],
    ['TRUST_PROXY with a prefix too long', { TRUST_PROXY: '10.0.0.0/99' }, /TRUST_PROXY .*"10\.0\.0\.0\/99"/],
    ['TRUST_PROXY with one bad entry of two', { TRUST_PROXY: '10.0.0.1, 300.0.0.1' }, /"300\.0\.0\.1"/],
  ];
  for (const [what, env, pattern] of badSettings) {
    it(`serve refuses ${what}, creating no database`, async () => {
      const path = `${workspace.dir}/never-${Object.keys(env)[0]}.db`;
      assertRefused(await runCli(path, ['serve'], undefined, env), pattern);
      assert.ok(!existsSync(path), 'the database was created before the settings were checked');
    });
  }

  it('serve accepts addresses, CIDR ranges and named ranges in TRUST_PROXY', async () => {
    const server = await startServer(workspace.databasePath, {
      env: { TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 192.168.1.7' },
    });
    assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    await server.stop();
  });

  it('serve and migrate take no arguments: a flag is a mistake, not ignored', async () => {
    const path = `${workspace.dir}/never-args.db`;
    assertRefused(await runCli(path, ['serve', '--port', '9999']), /^snapgraph: serve takes no arguments.*--port 9999/);
    assertRefused(await runCli(path, ['migrate', '--bogus']), /^snapgraph: migrate takes no arguments.*--bogus/);
    assert.ok(!existsSync(path));
  });

  it('--rpm and --burst beyond what a key can hold: a usage error naming the flag, no key made', async () => {
    const huge = '99999999999999999999';
    assertRefused(
      await runCli(workspace.databasePath, ['keys', 'create', '--plan', 'enterprise', '--rpm', huge, '--burst', '5']),
      /^snapgraph: --rpm must be a whole number from 1 to 2147483647/,
    );
    const key = await createKeyViaCli(workspace.databasePath, [
      '--plan',
      'enterprise',
      '--rpm',
      '600',
      '--burst',
      '50',
    ]);
    assertRefused(
      await runCli(workspace.databasePath, ['keys', 'update', key.key_id, '--burst', '2147483648']),
      /^snapgraph: --burst must be a whole number from 1 to 2147483647/,
    );
    const listed = await runCli(workspace.databasePath, ['keys', 'list', '--json']);
    const records = JSON.parse(listed.stdout) as { id: string; rpm: number; burst: number }[];
    assert.equal(records.length, 1, 'only the valid key was made');
    assert.deepEqual([records[0]?.rpm, records[0]?.burst], [600, 50], 'the refused update changed nothing');
  });
});
