import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, connectHttp, startHttpMcp, startLiveServer, type HttpMcp, type LiveServer } from './support.js';
import { toolBehaviour } from './tools.js';

describe('snapgraph-mcp over Streamable HTTP, driven by the SDK client', () => {
  let server: LiveServer;
  let mcp: HttpMcp;
  let client: Client;
  before(async () => {
    server = await startLiveServer();
    const key = await server.newKey();
    mcp = await startHttpMcp(server.baseUrl, key.key);
    client = await connectHttp(mcp.endpoint);
  });
  after(async () => {
    await client?.close();
    await mcp?.stop();
    await server?.close();
  });

  toolBehaviour(() => client);

  it("a caller's own Authorization: Bearer key is used instead of the configured one", async () => {
    const other = await server.newKey();
    const own = await connectHttp(mcp.endpoint, { authorization: `Bearer ${other.key}` });
    const made = (await call(own, 'create_snapshot', { name: 'Mine', core: 'only in the other account' })).created;
    assert.equal(made.brain_id, other.brainId);
    const fromDefault = await client.callTool({ name: 'open_snapshot', arguments: { id: made.id } });
    assert.equal(fromDefault.isError, true, 'another account sees it as missing');
    await own.close();
  });

  it('refuses other Host or Origin headers (DNS rebinding), GET, and other paths', async () => {
    const post = (headers: Record<string, string>, path = '/mcp') =>
      fetch(new URL(path, mcp.endpoint), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    assert.equal((await post({ origin: 'https://evil.example' })).status, 403);
    assert.equal((await fetch(mcp.endpoint)).status, 405);
    assert.equal((await post({}, '/other')).status, 404);
  });

  it('without a configured key, a caller must bring one (401)', async () => {
    const keyless = await startHttpMcp(server.baseUrl);
    try {
      const res = await fetch(keyless.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      const key = await server.newKey();
      const withKey = await connectHttp(keyless.endpoint, { authorization: `Bearer ${key.key}` });
      assert.equal((await call(withKey, 'list_brains', {})).count, 1);
      await withKey.close();
    } finally {
      await keyless.stop();
    }
  });
});
