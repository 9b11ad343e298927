import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { prettyLogs } from '../../src/logging.js';
import {
  BIN,
  call,
  createKeyViaCli,
  freePort,
  suiteWorkspaces,
  SERVER_ROOT,
  sleep,
  snapshotBody,
  startServer,
} from './helpers/process-harness.js';

describe('metrics and readable logs of the running server', () => {
  const fresh = suiteWorkspaces();

  it('METRICS=true: GET /metrics counts every answer, those of the fast path included; LOG_FORMAT=pretty: readable lines', async () => {
    const workspace = await fresh('metrics');
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro']);
    const server = await startServer(workspace.databasePath, {
      env: { METRICS: 'true', LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
    });
    const created = await call(server.baseUrl, 'POST', '/v1/snapshots', { key: key.key, body: snapshotBody() });
    assert.equal(created.status, 201);
    for (let i = 0; i < 3; i++) {
      const read = await call(server.baseUrl, 'GET', `/v1/snapshots/${created.body.data.id}`, { key: key.key });
      assert.equal(read.status, 200);
    }
    const metrics = await call(server.baseUrl, 'GET', '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(
      metrics.text,
      /^snapgraph_http_requests_total\{method="GET",route="\/v1\/snapshots\/:id",status="200"\} 3$/m,
    );
    assert.match(
      metrics.text,
      /^snapgraph_http_requests_total\{method="POST",route="\/v1\/snapshots",status="201"\} 1$/m,
    );
    assert.match(metrics.text, /^snapgraph_queue_depth\{queue="auto_link"\} \d+$/m);

    await server.printed(/INFO: request/);
    const lines = server.stdout().split('\n').filter(Boolean);
    assert.ok(lines.length >= 4, server.stdout());
    for (const line of lines) {
      assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR|DEBUG): /, line);
    }
    assert.ok(lines.some((line) => /INFO: Server listening at http:\/\/127\.0\.0\.1:\d+/.test(line)));
    assert.ok(lines.some((line) => /INFO: request .*"status":201/.test(line)));
  });

  it('on a terminal the logs are readable lines by default; JSON lines otherwise', async () => {
    assert.equal(prettyLogs('auto', true), true);
    assert.equal(prettyLogs('auto', false), false);
    assert.equal(prettyLogs('json', true), false);
    assert.equal(prettyLogs('pretty', false), true);

    const workspace = await fresh('tty-logs');
    const port = await freePort();
    // `script` gives the server a terminal for stdout, as `npm start` in a shell does.
    const child = spawn('script', ['-qfec', `${process.execPath} ${BIN} serve`, '/dev/null'], {
      cwd: SERVER_ROOT,
      env: { ...process.env, DATABASE_URL: workspace.databasePath, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    try {
      for (let tries = 0; tries < 600 && !output.includes('Server listening'); tries++) await sleep(50);
      assert.match(output, /INFO.*: .*Server listening at/);
      assert.ok(!output.includes('{"level":'), output);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
