// Drives load with wrk when installed (a C program, not the bottleneck), else autocannon (in
// this Node process). SNAPGRAPH_BENCH_LOAD=autocannon forces the fallback.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackChild } from './cleanup.mjs';
import { cpuMs } from './server.mjs';

const wrkProbe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
const wrkInstalled = !wrkProbe.error;

export const loadTool = process.env.SNAPGRAPH_BENCH_LOAD === 'autocannon' || !wrkInstalled ? 'autocannon' : 'wrk';

/** e.g. "wrk 4.1.0 (debian/4.1.0-3+b2), 2 threads" or "autocannon 9.0.0". */
export const loadToolVersion = (() => {
  if (loadTool === 'wrk') {
    const text = `${wrkProbe.stdout}${wrkProbe.stderr}`;
    const version = /wrk (\S+)/.exec(text)?.[1] ?? '?';
    return `wrk ${version}, 2 threads`;
  }
  try {
    return `autocannon ${createRequire(import.meta.url)('autocannon/package.json').version}, in the bench process`;
  } catch {
    return 'autocannon (not installed: run npm install)';
  }
})();

function parseDuration(text) {
  const match = /([\d.]+)(us|ms|s|m)/.exec(text);
  if (!match) return NaN;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[match[2]];
}

/**
 * One measurement: `seconds` of load at `connections` against `url`.
 * Returns { rps, p50, p99 (ms), cpuPerRequestUs, requests, non2xx, socketErrors, timeouts }.
 */
export async function measure({ url, headers = {}, seconds, connections = 50, pid, method = 'GET', body }) {
  if (pid) await waitForIdle(pid);
  const cpuBefore = pid ? cpuMs(pid) : NaN;
  const options = { url, headers, seconds, connections, method, body };
  const result = loadTool === 'wrk' ? await runWrk(options) : await runAutocannon(options);
  const cpu = pid ? cpuMs(pid) - cpuBefore : NaN;
  if (!(result.requests > 0)) return { ...result, rps: 0, p50: NaN, p99: NaN, cpuPerRequestUs: NaN };
  return { ...result, cpuPerRequestUs: (cpu * 1000) / result.requests };
}

/**
 * Waits (at most 30 s) until the server has stopped working off requests a previous
 * measurement left queued: under 10 ms of CPU in 200 ms.
 */
async function waitForIdle(pid) {
  const deadline = Date.now() + 30_000;
  let before = cpuMs(pid);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    const now = cpuMs(pid);
    if (!(now - before > 10)) return;
    before = now;
  }
}

let scriptCounter = 0;

async function runWrk({ url, headers, seconds, connections, method, body }) {
  const threads = Math.min(2, connections); // wrk wants at least one connection per thread
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '--latency'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  let script;
  if (method !== 'GET' || body !== undefined) {
    script = join(tmpdir(), `snapgraph-wrk-${process.pid}-${++scriptCounter}.lua`);
    const lua = [
      `wrk.method = ${JSON.stringify(method)}`,
      `wrk.body = ${JSON.stringify(body ?? '')}`,
      'wrk.headers["Content-Type"] = "application/json"',
      '',
    ].join('\n');
    writeFileSync(script, lua);
    args.push('-s', script);
  }
  args.push(url);
  try {
    const out = await runProcess('wrk', args, (seconds + 30) * 1000);
    const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
      // Anchored: "95.50%" in the thread stats must not pass for the 50th percentile.
      p50: parseDuration(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? ''),
      p99: parseDuration(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? ''),
      requests: Number(/(\d+) requests in/.exec(out)?.[1]),
      non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
      socketErrors: errors ? Number(errors[1]) + Number(errors[2]) + Number(errors[3]) : 0,
      timeouts: errors ? Number(errors[4]) : 0,
    };
  } finally {
    if (script) rmSync(script, { force: true });
  }
}

/** Runs a command to completion (killed after `timeoutMs`), resolving with its stdout. */
function runProcess(command, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = trackChild(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code}): ${err.trim()}`));
    });
  });
}

async function runAutocannon({ url, headers, seconds, connections, method, body }) {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    duration: seconds,
    connections,
    method,
    body,
    timeout: 10,
  });
  return {
    // Like wrk's figure: all responses over the whole duration, not the mean of per-second samples.
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    socketErrors: result.errors - result.timeouts,
    timeouts: result.timeouts,
  };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Median, min and max of a field; values that are not numbers (no response at all) are left out. */
export function summarize(samples, field) {
  const values = samples
    .map((s) => (typeof field === 'function' ? field(s) : s[field]))
    .filter((v) => !Number.isNaN(v));
  if (values.length === 0) return { median: NaN, min: NaN, max: NaN };
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}
