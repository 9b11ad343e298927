// A key sent in a URL is refused (keys go in the Authorization header), and must not reach the
// access log either: log files are read by more people than the database (issue 34).
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

describe('access log redaction', () => {
  let workspace: Workspace;
  let server: ServerProcess;
  let key: CreatedKey;

  before(async () => {
    workspace = await makeWorkspace('log-redaction');
    server = await startServer(workspace.databasePath, { env: { LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0' } });
    key = await unlimitedKey(workspace.databasePath);
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  it('writes ?api_key= and other key-like query values as [REDACTED]', async () => {
    const paths = [
      `/v1/snapshots?api_key=${key.key}`,
      `/v1/snapshots?limit=1&token=hunter2&brain=x`,
      `/v1/snapshots?access_token=${key.key}&limit=2`,
      `/v1/snapshots?q=${key.key}`,
    ];
    const ids: string[] = [];
    for (const path of paths) {
      const response = await call(server.baseUrl, 'GET', path, {});
      assert.equal(response.status, 401, response.text);
      ids.push(response.headers.get('x-request-id') as string);
    }
    const exit = await server.stop('SIGTERM', 10_000);
    assert.deepEqual(exit, { code: 0, signal: null });
    const stdout = server.stdout();
    assert.ok(!stdout.includes(key.key), 'the key is in the log');
    assert.ok(!stdout.includes('hunter2'), 'the token is in the log');
    const urls = stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { request_id?: string; url?: string })
      .filter((line) => line.request_id !== undefined && ids.includes(line.request_id))
      .map((line) => line.url);
    assert.deepEqual(urls, [
      '/v1/snapshots?api_key=[REDACTED]',
      '/v1/snapshots?limit=1&token=[REDACTED]&brain=x',
      '/v1/snapshots?access_token=[REDACTED]&limit=2',
      '/v1/snapshots?q=sg_[REDACTED]',
    ]);
  });
});
