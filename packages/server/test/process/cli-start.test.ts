// The CLI loads only what the command it runs needs (docs/performance.md, "CLI start"): nothing
// but itself for `--help`, and for a command on the database neither the server nor the other
// backend's driver. Checked by what the process imports, not by a stopwatch: how long a start
// takes depends on the machine, what it loads does not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { testBackend } from '../helpers/database.js';
import { makeWorkspace, runCli, type Workspace } from './helpers/process-harness.js';

const RECORDER = pathToFileURL(join(import.meta.dirname, 'helpers', 'record-imports.mjs')).href;

/** The packages (node_modules) a CLI invocation imported, by name. */
async function packagesImported(workspace: Workspace, args: string[], label: string): Promise<Set<string>> {
  const file = join(workspace.dir, `imports-${label}.txt`);
  const result = await runCli(workspace.databasePath, args, undefined, {
    NODE_OPTIONS: `--import=${RECORDER}`,
    RECORD_IMPORTS_TO: file,
  });
  assert.equal(result.code, 0, result.stderr);
  const names = readFileSync(file, 'utf8')
    .split('\n')
    .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return new Set(names);
}

/** The server's packages, and the schema ones only the server needs (src/config-schema.ts). */
const SERVER_PACKAGES = ['fastify', '@fastify/swagger', '@fastify/swagger-ui', 'pino', 'ioredis', 'typebox', 'ajv'];

describe('snapgraph CLI start: what each command loads', () => {
  let workspace: Workspace;
  before(async () => {
    workspace = await makeWorkspace('cli-start');
    const created = await runCli(workspace.databasePath, ['keys', 'create', '--plan', 'free']);
    assert.equal(created.code, 0, created.stderr);
  });
  after(() => workspace?.remove());

  it('--help and --version load no package at all', async () => {
    for (const args of [['--help'], ['--version']]) {
      assert.deepEqual([...(await packagesImported(workspace, args, args[0]!.slice(2)))], [], args.join(' '));
    }
  });

  it('keys list loads one database driver and none of the server', async () => {
    const loaded = await packagesImported(workspace, ['keys', 'list'], 'keys-list');
    const driver = testBackend === 'postgres' ? 'pg' : 'better-sqlite3';
    const otherDriver = testBackend === 'postgres' ? 'better-sqlite3' : 'pg';
    assert.ok(loaded.has(driver), `${driver} not loaded: ${[...loaded].join(', ')}`);
    assert.equal(loaded.has(otherDriver), false, `${otherDriver} loaded for a ${testBackend} database`);
    for (const name of SERVER_PACKAGES) assert.equal(loaded.has(name), false, `${name} loaded by keys list`);
  });
});
