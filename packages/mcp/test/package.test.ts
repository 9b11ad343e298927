import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
const packageDir = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));

async function pack(name: string, into: string): Promise<string> {
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', into], { cwd: packageDir(name) });
  return join(into, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
}

/** Both tarballs installed into a fresh project; its `snapgraph-mcp` bin driven over stdio. */
describe('the packed tarball', () => {
  let dir: string;
  let server: LiveServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-mcp-pack-'));
    server = await startLiveServer();
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs with its dependencies and answers as snapgraph-mcp', async () => {
    const tarballs = [await pack('client', dir), await pack('mcp', dir)];
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'try-mcp', private: true, type: 'module' }));
    // The SDK and zod come from the registry, or from npm's cache when it has them.
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
      cwd: project,
      timeout: 300_000,
    });

    const key = await server.newKey();
    const client = new Client({ name: 'pack-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: join(project, 'node_modules', '.bin', 'snapgraph-mcp'),
        env: { PATH: process.env.PATH ?? '', SNAPGRAPH_URL: server.baseUrl, SNAPGRAPH_API_KEY: key.key },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'search_snapshots'));
      const result = await client.callTool({ name: 'list_brains', arguments: {} });
      assert.equal(result.isError, undefined);
      assert.equal((result.structuredContent as { count: number }).count, 1);
    } finally {
      await client.close();
    }
  });
});
