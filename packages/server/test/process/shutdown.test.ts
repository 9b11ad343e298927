// SIGTERM with requests in flight: they finish normally, the process exits 0, nothing is lost.
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { after, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import {
  call,
  canConnect,
  HOST,
  inBatches,
  makeWorkspace,
  sleep,
  snapshotBody,
  startServer,
  stopAllServers,
  unlimitedKey,
  waitFor,
  withTimeout,
  type CreatedKey,
  type Exit,
  type ServerProcess,
  type Workspace,
} from './helpers/process-harness.js';

const BURST = 50;
const EXIT_WITHIN_MS = 5000;

interface Outcome {
  status?: number;
  body?: any;
  error?: string;
}

interface PostOptions {
  port: number;
  key: string;
  body: unknown;
  agent?: Agent | false;
  /** Send `Expect: 100-continue` and hold back the second half of the body until `finish()`. */
  hold?: boolean;
}

/**
 * One POST /v1/snapshots over node:http. `sent` resolves once the whole request is handed to
 * the kernel, or — when `hold` is set — once the server has answered `100 Continue` (proof that
 * it has read the request head and is handling the request) and half the body is out.
 */
function postSnapshot(options: PostOptions) {
  const payload = Buffer.from(JSON.stringify(options.body));
  const half = Math.floor(payload.length / 2);
  let markSent: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  let finish: () => void = () => undefined;
  const outcome = new Promise<Outcome>((resolve) => {
    const req = httpRequest(
      {
        host: HOST,
        port: options.port,
        path: '/v1/snapshots',
        method: 'POST',
        agent: options.agent ?? false,
        headers: {
          authorization: `Bearer ${options.key}`,
          'content-type': 'application/json',
          'content-length': payload.length,
          ...(options.hold ? { expect: '100-continue' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', (err) => resolve({ error: `response: ${err.message}` }));
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('timed out')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    if (options.hold) {
      req.on('continue', () => {
        req.write(payload.subarray(0, half));
        markSent();
      });
      finish = () => req.end(payload.subarray(half));
    } else {
      req.on('finish', markSent);
      req.end(payload);
    }
  });
  return { sent, outcome, finish: () => finish() };
}

function burstBody(i: number): Record<string, unknown> {
  return snapshotBody({ name: `In flight ${i}`, story: `${i} `.repeat(4000), tags: ['shutdown'] });
}

function summarize(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const label = o.error ?? String(o.status);
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

async function expectCleanExit(server: ServerProcess, signalledAt: number): Promise<void> {
  const remaining = Math.max(1, EXIT_WITHIN_MS - (Date.now() - signalledAt));
  const exit: Exit = await withTimeout(
    server.exited,
    remaining,
    `the server did not exit within ${EXIT_WITHIN_MS} ms of SIGTERM`,
  );
  assert.deepEqual(exit, { code: 0, signal: null }, 'exit status after SIGTERM');
}

async function expectRefused(server: ServerProcess, key: string): Promise<void> {
  assert.equal(await canConnect(server.port), false, 'something still accepts connections after exit');
  const refused = await call(server.baseUrl, 'GET', '/v1/snapshots', { key }).then(
    (r) => `answered ${r.status}`,
    (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
  );
  assert.equal(refused, 'ECONNREFUSED');
}

/** Restarts on the same database and checks every acknowledged snapshot is there, unchanged. */
async function expectAllThere(workspace: Workspace, key: CreatedKey, acknowledged: Record<string, unknown>[]) {
  const restarted = await startServer(workspace.databasePath);
  try {
    const problems: string[] = [];
    await inBatches(acknowledged, 10, async (expected) => {
      const read = await call(restarted.baseUrl, 'GET', `/v1/snapshots/${expected.id}`, { key: key.key });
      if (read.status !== 200) problems.push(`${expected.id}: ${read.status}`);
      else if (!isDeepStrictEqual(read.body.data, expected)) problems.push(`${expected.id}: came back different`);
    });
    assert.deepEqual(problems, [], 'acknowledged writes missing or changed after the restart');
    const listed = await call(restarted.baseUrl, 'GET', '/v1/snapshots?limit=100', { key: key.key });
    assert.equal(listed.body.count, acknowledged.length, 'snapshots after the restart');
  } finally {
    await restarted.stop();
  }
}

describe('graceful shutdown on SIGTERM', { timeout: 60_000 }, () => {
  const workspaces: Workspace[] = [];
  after(async () => {
    await stopAllServers();
    await Promise.all(workspaces.map((w) => w.remove()));
  });

  it('finishes 50 requests in flight with 201, stops accepting, exits 0 and loses nothing', async () => {
    const workspace = await makeWorkspace('shutdown-held');
    workspaces.push(workspace);
    const server = await startServer(workspace.databasePath);
    const key = await unlimitedKey(workspace.databasePath);
    const earlier = await call(server.baseUrl, 'POST', '/v1/snapshots', {
      key: key.key,
      body: snapshotBody({ name: 'Written before the burst' }),
    });
    assert.equal(earlier.status, 201, earlier.text);

    // 50 concurrent POSTs, each provably being handled by the server, half their body sent.
    const posts = Array.from({ length: BURST }, (_, i) =>
      postSnapshot({ port: server.port, key: key.key, body: burstBody(i), hold: true }),
    );
    await withTimeout(
      Promise.all(posts.map((p) => p.sent)),
      5000,
      `the server did not start handling all ${BURST} requests (no 100 Continue)`,
    );

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await sleep(100);
    assert.equal(server.hasExited(), false, `the server exited with ${BURST} requests unfinished`);
    await waitFor(
      'the server to stop accepting new connections after SIGTERM',
      async () => !(await canConnect(server.port, 200)),
      2000,
    );
    assert.equal(server.hasExited(), false, `the server exited with ${BURST} requests unfinished`);

    for (const post of posts) post.finish();
    const outcomes = await Promise.all(posts.map((p) => p.outcome));
    assert.deepEqual(summarize(outcomes), { 201: BURST }, 'every request in flight must complete with 201');
    for (const outcome of outcomes) assert.match(outcome.body.data.id, /^snap_/);

    await expectCleanExit(server, signalledAt);
    await expectRefused(server, key.key);
    await expectAllThere(workspace, key, [earlier.body.data, ...outcomes.map((o) => o.body.data)]);
  });

  for (const mode of ['kept-alive', 'new'] as const) {
    it(`answers a burst of ${BURST} POSTs fully sent on ${mode} connections before SIGTERM with 201 each`, async () => {
      const workspace = await makeWorkspace(`shutdown-${mode}`);
      workspaces.push(workspace);
      const server = await startServer(workspace.databasePath);
      const key = await unlimitedKey(workspace.databasePath);
      const agent = mode === 'kept-alive' ? new Agent({ keepAlive: true, maxSockets: BURST }) : undefined;
      try {
        if (agent) {
          // Open (and check) the connections the burst will use.
          const warm = await Promise.all(
            Array.from(
              { length: BURST },
              () =>
                new Promise<number>((resolve, reject) => {
                  const req = httpRequest(
                    {
                      host: HOST,
                      port: server.port,
                      path: '/v1/snapshots?limit=1',
                      agent,
                      headers: { authorization: `Bearer ${key.key}` },
                    },
                    (res) => {
                      res.resume();
                      res.on('end', () => resolve(res.statusCode ?? 0));
                    },
                  );
                  req.on('error', reject);
                  req.end();
                }),
            ),
          );
          assert.deepEqual([...new Set(warm)], [200]);
        }

        // Freeze the server so that the whole burst is sent (and waiting in its sockets) before
        // it sees SIGTERM: a busy or descheduled server is in exactly this position.
        server.child.kill('SIGSTOP');
        let signalledAt = 0;
        let posts: ReturnType<typeof postSnapshot>[] = [];
        try {
          posts = Array.from({ length: BURST }, (_, i) =>
            postSnapshot({ port: server.port, key: key.key, body: burstBody(i), agent: agent ?? false }),
          );
          await withTimeout(Promise.all(posts.map((p) => p.sent)), 5000, `sending ${BURST} requests`);
          signalledAt = Date.now();
          server.child.kill('SIGTERM');
          await sleep(20);
        } finally {
          server.child.kill('SIGCONT');
        }

        const outcomes = await Promise.all(posts.map((p) => p.outcome));
        assert.deepEqual(
          summarize(outcomes),
          { 201: BURST },
          'every request sent before SIGTERM must complete with 201 (not a reset or a 503)',
        );
        await expectCleanExit(server, signalledAt);
        await expectRefused(server, key.key);
        await expectAllThere(
          workspace,
          key,
          outcomes.map((o) => o.body.data),
        );
      } finally {
        agent?.destroy();
      }
    });
  }
});
