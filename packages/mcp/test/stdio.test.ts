import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { BIN, connectStdio, startLiveServer, type LiveServer } from './support.js';
import { toolBehaviour } from './tools.js';

describe('snapgraph-mcp over stdio, driven by the SDK client', () => {
  let server: LiveServer;
  let client: Client;
  before(async () => {
    server = await startLiveServer();
    const key = await server.newKey();
    client = await connectStdio(server.baseUrl, key.key);
  });
  after(async () => {
    await client?.close();
    await server?.close();
  });

  toolBehaviour(() => client);

  it('the service being down is a tool error too, not a crash', async () => {
    const offline = await connectStdio('http://127.0.0.1:9', 'sg_unused');
    const result = await offline.callTool({ name: 'open_snapshot', arguments: { id: 'snap_x' } });
    assert.equal(result.isError, true);
    assert.match(
      JSON.stringify(result.content),
      /UNAVAILABLE: the service at http:\/\/127\.0\.0\.1:9 could not be reached \(bad port\)/,
    );
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'UNAVAILABLE');
    await offline.close();
  });

  it('without SNAPGRAPH_API_KEY it exits 2 and says what to do', async () => {
    const child = spawn(process.execPath, [BIN], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /SNAPGRAPH_API_KEY is not set/);
  });
});
