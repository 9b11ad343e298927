// Starts servers (the built Snapgraph CLI, or a baseline script) as child processes on free
// loopback ports, prepares databases with an enterprise key, and reads a process's CPU and RSS.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { onCleanup, trackChild } from './cleanup.mjs';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(REPO, 'packages/server/bin/snapgraph.js');
export const HOST = '127.0.0.1';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; throws when `timeoutMs` passes or `isDead()` turns true. */
export async function waitForHttp(url, { timeoutMs = 30_000, isDead = () => false } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isDead()) throw new Error(`server for ${url} exited before answering`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`server at ${url} did not answer within ${timeoutMs} ms`);
}

/** Runs a Snapgraph CLI command against `databaseUrl` and returns its stdout. */
export function snapgraphCli(args, databaseUrl) {
  return execFileSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/**
 * A temporary directory (in `parent`, default the system's) removed at the end of the run, or
 * earlier through the returned function.
 */
export function tempDir(parent = tmpdir()) {
  const dir = mkdtempSync(join(parent, 'snapgraph-bench-'));
  const remove = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, remove };
}

/**
 * A database with the current schema and one enterprise key whose limits never bind unless
 * asked: a fresh SQLite file in a temporary directory (made in `parentDir` when given), or the
 * given (PostgreSQL) URL. Returns { databaseUrl, key, key_id, account_id, brain_id, cleanup }.
 */
export function prepareDatabase({ databaseUrl, parentDir, rpm = 1_000_000_000, burst = 1_000_000_000 } = {}) {
  const { dir, remove } = tempDir(parentDir);
  const url = databaseUrl ?? join(dir, 'bench.db');
  const out = snapgraphCli(
    ['keys', 'create', '--plan', 'enterprise', '--rpm', String(rpm), '--burst', String(burst), '--json'],
    url,
  );
  return { dir, databaseUrl: url, ...JSON.parse(out), cleanup: remove };
}

/**
 * Spawns `node <args>` with PORT and HOST set, drains its stdout (as a log shipper would) and
 * waits for its /healthz. Returns { name, base, pid, startupMs, alive(), stop() }.
 */
export async function startNodeServer({ name, args, env = {}, healthPath = '/healthz', timeoutMs = 60_000 }) {
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = trackChild(
    spawn(process.execPath, args, {
      env: { ...process.env, PORT: String(port), HOST, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  // Every line the server writes is kept (waitForLine looks for one), none shown.
  const lines = [];
  const waiting = new Set();
  let partial = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop();
    for (const line of parts) {
      if (lines.length < 10_000) lines.push(line);
      for (const waiter of waiting) waiter(line);
    }
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  const base = `http://${HOST}:${port}`;
  try {
    await waitForHttp(`${base}${healthPath}`, { timeoutMs, isDead: () => !alive() });
  } catch (err) {
    await stopChild(child);
    throw new Error(`${name}: ${err.message}`);
  }
  return {
    name,
    base,
    port,
    pid: child.pid,
    startupMs: performance.now() - spawnedAt,
    alive,
    /** Resolves with the first line (already written or to come) matching `pattern`. */
    waitForLine: (pattern, timeoutMs = 600_000) =>
      new Promise((resolve, reject) => {
        const seen = lines.find((line) => pattern.test(line));
        if (seen !== undefined) return resolve(seen);
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`${name}: no line matching ${pattern} within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = (line) => {
          if (!pattern.test(line)) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve(line);
        };
        waiting.add(check);
      }),
    stop: () => stopChild(child),
  };
}

/** Snapgraph as shipped: `snapgraph serve`, LOG_LEVEL info, its stdout drained. */
export function startSnapgraph({ databaseUrl, env = {}, name = 'Snapgraph' }) {
  return startNodeServer({
    name,
    args: [CLI, 'serve'],
    env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', ...env },
  });
}

/** A baseline server from bench/baselines/. */
export function startBaseline(script, { name, env = {} }) {
  return startNodeServer({ name, args: [join(REPO, 'bench/baselines', script)], env });
}

export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
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

/** Resident set size of a process in MiB (Linux /proc). */
export function rssMiB(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}
