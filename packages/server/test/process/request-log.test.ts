// The access log of `snapgraph serve`: one JSON line per request on stdout, batched but never
// lost — what is gathered is written out when the server stops.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  call,
  makeWorkspace,
  startServer,
  stopAllServers,
  unlimitedKey,
  type CreatedKey,
  type ServerProcess,
  type Workspace,
} from './helpers/process-harness.js';

interface LogLine {
  level: number;
  msg: string;
  request_id?: string;
  method?: string;
  url?: string;
  status?: number;
  ms?: number;
}

const logLines = (stdout: string): LogLine[] =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);

describe('request log', { timeout: 60_000 }, () => {
  let workspace: Workspace;
  let server: ServerProcess;
  let key: CreatedKey;

  before(async () => {
    workspace = await makeWorkspace('request-log');
    server = await startServer(workspace.databasePath, { env: { LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0' } });
    key = await unlimitedKey(workspace.databasePath);
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  it('writes one line per request, with its id, method, url, status and duration, by the time the server stops', async () => {
    const requests = 300;
    const ids: string[] = [];
    for (let i = 0; i < requests; i++) {
      const path = i % 2 === 0 ? `/v1/snapshots?limit=1&i=${i}` : `/v1/snapshots/snap_missing_${i}`;
      const response = await call(server.baseUrl, 'GET', path, { key: key.key });
      assert.equal(response.status, i % 2 === 0 ? 200 : 404, response.text);
      ids.push(response.headers.get('x-request-id') as string);
    }
    const exit = await server.stop('SIGTERM', 10_000);
    assert.deepEqual(exit, { code: 0, signal: null });

    const lines = logLines(server.stdout()).filter((line) => line.msg === 'request');
    const byId = new Map(lines.map((line) => [line.request_id, line]));
    assert.equal(lines.length, byId.size, 'one line per request id');
    ids.forEach((id, i) => {
      const line = byId.get(id);
      assert.ok(line, `no log line for request ${i} (${id})`);
      assert.equal(line.level, 30);
      assert.equal(line.method, 'GET');
      assert.equal(line.status, i % 2 === 0 ? 200 : 404);
      assert.match(line.url ?? '', i % 2 === 0 ? new RegExp(`&i=${i}$`) : new RegExp(`snap_missing_${i}$`));
      assert.equal(typeof line.ms, 'number');
    });
  });
});
