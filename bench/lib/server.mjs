// Starts a Snapgraph server (the built CLI) as a child process on a free port, for benchmarks.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(REPO, 'packages/server/bin/snapgraph.js');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHttp(url, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server at ${url} did not come up`);
}

/** A fresh database directory with one enterprise key whose limits never bind unless asked. */
export function prepareDatabase({ databaseUrl, rpm = 1_000_000_000, burst = 1_000_000_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'snapgraph-bench-'));
  const url = databaseUrl ?? join(dir, 'bench.db');
  const out = execFileSync(
    process.execPath,
    [CLI, 'keys', 'create', '--plan', 'enterprise', '--rpm', String(rpm), '--burst', String(burst), '--json'],
    { env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' },
  );
  return { dir, databaseUrl: url, ...JSON.parse(out), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startSnapgraph({ databaseUrl, env = {} }) {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info',
      ...env,
    },
    // Default logging, as shipped: written to a pipe that is drained, like a log shipper would.
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.resume();
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/healthz`);
  return { base, port, pid: child.pid, stop: () => stopChild(child) };
}

export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** User + system CPU time of a process so far, in milliseconds (Linux /proc). */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}
