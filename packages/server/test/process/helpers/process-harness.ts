// Drives the built program from outside, as a user would: `bin/snapgraph.js` as a subprocess,
// talking to it over real HTTP on 127.0.0.1. Nothing here imports `src`.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '../../helpers/database.js';
import { HANG_GUARD_MS } from '../../helpers/hang-guard.js';

export { HANG_GUARD_MS };

export const SERVER_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BIN = join(SERVER_ROOT, 'bin', 'snapgraph.js');
export const HOST = '127.0.0.1';

/** Matches what `keys create --json` prints. */
export interface CreatedKey {
  key: string;
  key_id: string;
  account_id: string;
  brain_id: string;
  plan: string;
  [field: string]: unknown;
}

export interface Workspace {
  dir: string;
  /** DATABASE_URL: an SQLite file in `dir`, or a fresh PostgreSQL database (see testBackend). */
  databasePath: string;
  remove(): Promise<void>;
}

/** A fresh temporary directory and an empty database of the backend under test. */
export async function makeWorkspace(label: string): Promise<Workspace> {
  const dir = mkdtempSync(join(tmpdir(), `snapgraph-process-${label}-`));
  const database = await createTestDatabase(dir);
  return {
    dir,
    databasePath: database.url,
    remove: async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A port nobody listens on right now: bind port 0, read the port, let it go. */
/**
 * For a suite: `fresh(label)` makes a workspace (by `make`, makeWorkspace unless told) that is
 * removed, with every server the suite started, when the suite ends. Call it inside `describe`.
 */
export function suiteWorkspaces(): (label: string, make?: (label: string) => Promise<Workspace>) => Promise<Workspace> {
  const workspaces: Workspace[] = [];
  after(async () => {
    await stopAllServers();
    await Promise.all(workspaces.map((w) => w.remove()));
  });
  return async (label, make = makeWorkspace) => {
    const workspace = await make(label);
    workspaces.push(workspace);
    return workspace;
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `promise`, or a rejection naming `what` after `ms`; the timer never outlives the race. */
export async function withTimeout<T>(promise: Promise<T>, what: string, ms = HANG_GUARD_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` until it returns true, failing with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = HANG_GUARD_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

export function childEnv(databasePath: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databasePath, HOST, ...extra };
  env.LOG_LEVEL = extra.LOG_LEVEL ?? 'silent';
  if (!extra.REDIS_URL) delete env.REDIS_URL;
  delete env.PORT;
  if (extra.PORT) env.PORT = extra.PORT;
  return env;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs one CLI command to completion (killed after `timeoutMs`), with extra settings in `env`. */
export async function runCli(
  databasePath: string,
  args: string[],
  timeoutMs = HANG_GUARD_MS,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: SERVER_ROOT,
    env: childEnv(databasePath, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (c, s) => resolve([c, s]));
    });
    return { code, signal, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** A CLI refusal as the README promises it: this exit code and one `snapgraph: …` line, no stack. */
export function assertOneLineExit(result: CliResult, code: number, pattern: RegExp): void {
  assert.equal(result.code, code, result.stderr);
  // Besides the line naming the database the command opened (design §16).
  const lines = result.stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('database: '));
  assert.match(lines.join('\n'), pattern);
  assert.equal(lines.length, 1, `one line, no stack trace:\n${result.stderr}`);
}

/** `keys create … --json`, asserting it succeeded, parsed. */
export async function createKeyViaCli(databasePath: string, args: string[] = ['--plan', 'pro']): Promise<CreatedKey> {
  const result = await runCli(databasePath, ['keys', 'create', ...args, '--json']);
  if (result.code !== 0) {
    throw new Error(`keys create ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
  }
  return JSON.parse(result.stdout) as CreatedKey;
}

/** A key whose limits never get in the way of load tests. */
export function unlimitedKey(databasePath: string): Promise<CreatedKey> {
  return createKeyViaCli(databasePath, ['--plan', 'enterprise', '--rpm', '10000000', '--burst', '1000000']);
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<Exit>;
  /** Resolves once stdout or stderr matches `pattern`; rejects if the process exits first. */
  printed(pattern: RegExp): Promise<void>;
  hasExited(): boolean;
  /**
   * Sends `signal`, then SIGKILL if it is still alive after `graceMs` (by default: only a hang;
   * the server bounds its own shutdown by SHUTDOWN_TIMEOUT_MS and exits 1 past it); resolves on
   * exit.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<Exit>;
}

const running = new Set<ServerProcess>();

/** Whether something accepts TCP connections on the port right now. */
export function canConnect(port: number, timeoutMs = HANG_GUARD_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: HOST, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * `snapgraph serve` on a free port; resolves once the port accepts connections, however long
 * that takes, or fails as soon as the process exits. Every server started here is tracked, so
 * `stopAllServers()` in `after` can end whatever a failed test left.
 */
export async function startServer(
  databasePath: string,
  options: { env?: Record<string, string>; args?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  // `args` runs another program than `snapgraph serve` (a test's own server: job-server.ts).
  const child = spawn(process.execPath, options.args ?? [BIN, 'serve'], {
    cwd: SERVER_ROOT,
    env: childEnv(databasePath, { ...options.env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const output = new EventEmitter();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output.emit('data');
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output.emit('data');
  });
  let outputClosed = false;
  child.once('close', () => (outputClosed = true));
  let exitInfo: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
    child.once('error', () => {
      exitInfo ??= { code: null, signal: null };
      resolve(exitInfo);
    });
  });
  const server: ServerProcess = {
    child,
    port,
    baseUrl: `http://${HOST}:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    printed: (pattern) =>
      withTimeout(
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (!pattern.test(stdout) && !pattern.test(stderr)) return;
            output.off('data', check);
            resolve();
          };
          // 'close', not 'exit': the last output may be read after the process has exited.
          const fail = () => {
            output.off('data', check);
            reject(new Error(`the server exited (${JSON.stringify(exitInfo)}) without printing ${pattern}`));
          };
          output.on('data', check);
          check();
          if (outputClosed) fail();
          else child.once('close', fail);
        }),
        `the server to print ${pattern}`,
      ),
    hasExited: () => exitInfo !== undefined,
    stop: async (signal = 'SIGTERM', graceMs = HANG_GUARD_MS) => {
      if (!exitInfo) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
        running.delete(server);
      }
    },
  };
  running.add(server);
  exited.then(() => running.delete(server)).catch(() => undefined);

  const deadline = Date.now() + HANG_GUARD_MS;
  while (!(await canConnect(port))) {
    if (exitInfo) {
      throw new Error(`snapgraph serve exited (${JSON.stringify(exitInfo)}) before listening:\n${stderr}\n${stdout}`);
    }
    if (Date.now() > deadline) {
      await server.stop('SIGKILL');
      throw new Error(`snapgraph serve did not listen on ${port} in time:\n${stderr}\n${stdout}`);
    }
    await sleep(25);
  }
  return server;
}

/**
 * Ends every server this process started and has not seen exit: clean-up after a failed test,
 * so SIGKILL follows soon (3 s) rather than at the hang guard.
 */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop('SIGTERM', 3000)));
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** One request over real HTTP with global fetch; the body is parsed when it is JSON. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? HANG_GUARD_MS),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The minimal valid snapshot body, with overrides. */
export function snapshotBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Compounding', core: 'Small consistent gains compound over time', ...overrides };
}

/** Runs `work` over `items` with at most `limit` running at once. */
export async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
