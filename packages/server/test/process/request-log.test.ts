// The access log of `snapgraph serve`: one JSON line per request on stdout, batched but never
// lost — what is gathered is written out when the server stops — and the same line whether
// Fastify or the fast path of GET one (src/http/fast-path/snapshot-read.ts) answered — and a key sent in a URL,
// refused, never reaches it (issue 34: log files are read by more people than the database).
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
import { testBackend } from '../helpers/database.js';

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

// The same on either store: the SQLite pass runs it (scripts/run-tests.mjs, ONE_BACKEND_ONLY).
describe('request log', { skip: testBackend !== 'sqlite' }, () => {
  let workspace: Workspace;
  let key: CreatedKey;
  let snapshotId: string;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let stdout: string;
  /** Request ids of the ordinary traffic, in order, and of the requests with a key in the URL. */
  const ids: string[] = [];
  const keyInUrlIds: string[] = [];
  // A list (Fastify), a missing snapshot (the fast path declines, Fastify answers 404), and a
  // snapshot that exists (answered by the fast path).
  const kinds = [
    { path: (i: number) => `/v1/snapshots?limit=1&i=${i}`, status: 200, url: (i: number) => new RegExp(`&i=${i}$`) },
    { path: (i: number) => `/v1/snapshots/snap_missing_${i}`, status: 404, url: (i: number) => new RegExp(`_${i}$`) },
    { path: () => `/v1/snapshots/${snapshotId}`, status: 200, url: () => new RegExp(`/${snapshotId}$`) },
  ];
  const requests = 300;

  // One server for both checks: the traffic, then the server stopped, then its whole log read.
  before(async () => {
    workspace = await makeWorkspace('request-log');
    const server: ServerProcess = await startServer(workspace.databasePath, {
      env: { LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0' },
    });
    key = await unlimitedKey(workspace.databasePath);
    const created = await call(server.baseUrl, 'POST', '/v1/snapshots', {
      key: key.key,
      body: { name: 'Logged', core: 'Every request leaves one line' },
    });
    assert.equal(created.status, 201, created.text);
    snapshotId = (created.body as { data: { id: string } }).data.id;
    for (let i = 0; i < requests; i++) {
      const kind = kinds[i % kinds.length]!;
      const response = await call(server.baseUrl, 'GET', kind.path(i), { key: key.key });
      assert.equal(response.status, kind.status, response.text);
      ids.push(response.headers.get('x-request-id') as string);
    }
    for (const path of [
      `/v1/snapshots?api_key=${key.key}`,
      `/v1/snapshots?limit=1&token=hunter2&brain=x`,
      `/v1/snapshots?access_token=${key.key}&limit=2`,
      `/v1/snapshots?q=${key.key}`,
      // In a path segment (issue 46), %5F for its underscore too.
      `/v1/snapshots/${key.key}`,
      `/${key.key}`,
      `/v1/snapshots/${key.key.replace('_', '%5F')}`,
    ]) {
      const response = await call(server.baseUrl, 'GET', path, {});
      assert.ok([401, 404].includes(response.status), `${response.status} ${response.text}`);
      keyInUrlIds.push(response.headers.get('x-request-id') as string);
    }
    exit = await server.stop('SIGTERM', 10_000);
    stdout = server.stdout();
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  it('writes one line per request, with its id, method, url, status and duration, by the time the server stops', () => {
    assert.deepEqual(exit, { code: 0, signal: null });
    const all = logLines(stdout);
    const lines = all.filter((line) => line.msg === 'request');
    const byId = new Map(lines.map((line) => [line.request_id, line]));
    assert.equal(lines.length, byId.size, 'one line per request id');
    // pino's own lines (start-up, shutdown) and the access lines share one layout.
    const other = all.find((line) => line.msg !== 'request') as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(other).slice(0, 4), ['level', 'time', 'pid', 'hostname']);
    ids.forEach((id, i) => {
      const kind = kinds[i % kinds.length]!;
      const line = byId.get(id);
      assert.ok(line, `no log line for request ${i} (${id})`);
      assert.deepEqual(Object.keys(line), [
        'level',
        'time',
        'pid',
        'hostname',
        'request_id',
        'method',
        'url',
        'status',
        'ms',
        'msg',
      ]);
      assert.equal(line.level, 30);
      assert.equal((line as unknown as Record<string, unknown>).pid, other.pid);
      assert.equal(line.method, 'GET');
      assert.equal(line.status, kind.status);
      assert.match(line.url ?? '', kind.url(i));
      assert.equal(typeof line.ms, 'number');
    });
  });

  it('writes ?api_key=, other key-like query values and key-shaped path segments as [REDACTED]', () => {
    assert.ok(!stdout.includes(key.key), 'the key is in the log');
    assert.ok(!stdout.includes('hunter2'), 'the token is in the log');
    const urls = logLines(stdout)
      .filter((line) => line.request_id !== undefined && keyInUrlIds.includes(line.request_id))
      .map((line) => line.url);
    assert.deepEqual(urls, [
      '/v1/snapshots?api_key=[REDACTED]',
      '/v1/snapshots?limit=1&token=[REDACTED]&brain=x',
      '/v1/snapshots?access_token=[REDACTED]&limit=2',
      '/v1/snapshots?q=sg_[REDACTED]',
      '/v1/snapshots/sg_[REDACTED]',
      '/sg_[REDACTED]',
      '/v1/snapshots/sg_[REDACTED]',
    ]);
  });
});
