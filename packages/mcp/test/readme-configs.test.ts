import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startLiveServer, type LiveServer } from './support.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

interface ServerEntry {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** The `mcpServers.snapgraph` entry of every JSON block of the README, as written. */
function readmeConfigs(): ServerEntry[] {
  const blocks = [...readFileSync(README, 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  return blocks.map((block) => (JSON.parse(block) as { mcpServers: { snapgraph: ServerEntry } }).mcpServers.snapgraph);
}

/** Starts exactly the entry's command and arguments, as an assistant would, and talks MCP to it. */
async function assertAnswers(entry: ServerEntry, server: LiveServer, key: string): Promise<void> {
  const client = new Client({ name: 'readme-config-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: entry.command,
      args: entry.args ?? [],
      // The README's env, with this test's service and key in place of the placeholders.
      env: { PATH: process.env.PATH ?? '', ...entry.env, SNAPGRAPH_URL: server.baseUrl, SNAPGRAPH_API_KEY: key },
      stderr: 'pipe',
    }),
  );
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'promote_memory'));
    const result = await client.callTool({ name: 'list_brains', arguments: {} });
    assert.equal(result.isError, undefined, JSON.stringify(result));
  } finally {
    await client.close();
  }
}

/** The Claude Desktop / Cursor configurations of the README, each started as written (paths filled in). */
describe('README configurations', () => {
  let server: LiveServer;
  let dir: string;
  before(async () => {
    server = await startLiveServer();
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-mcp-readme-'));
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has the checkout configuration and the tarball one, and no registry command to use today', () => {
    const configs = readmeConfigs();
    assert.equal(configs.length, 2);
    assert.deepEqual(configs[0]?.args, ['/path/to/snapgraph/packages/mcp/bin/snapgraph-mcp.js']);
    assert.equal(configs[1]?.command, '/home/you/snapgraph-mcp/node_modules/.bin/snapgraph-mcp');
    for (const config of configs) assert.notEqual(config.command, 'npx');
  });

  it('the checkout configuration starts and answers', async () => {
    const entry = readmeConfigs()[0] as ServerEntry;
    const args = (entry.args ?? []).map((arg) => arg.replace('/path/to/snapgraph', REPOSITORY));
    await assertAnswers({ ...entry, args }, server, (await server.newKey()).key);
  });

  it('the tarball configuration starts and answers, after the README’s install steps', async () => {
    const packed = await run(
      npm,
      ['pack', '--json', '-w', 'packages/client', '-w', 'packages/mcp', '--pack-destination', dir],
      {
        cwd: REPOSITORY,
      },
    );
    const tarballs = (JSON.parse(packed.stdout) as { filename: string }[]).map((t) => join(dir, t.filename));
    const home = join(dir, 'home');
    const folder = join(home, 'snapgraph-mcp');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'snapgraph-mcp-here', private: true }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
      cwd: folder,
      timeout: 300_000,
    });
    const entry = readmeConfigs()[1] as ServerEntry;
    await assertAnswers(
      { ...entry, command: entry.command.replace('/home/you', home) },
      server,
      (await server.newKey()).key,
    );
  });
});
