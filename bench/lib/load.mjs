// Drives load with wrk when installed (a C program, not the bottleneck), else autocannon (in
// this Node process). SNAPGRAPH_BENCH_LOAD=autocannon forces the fallback.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
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
 * One measurement: `seconds` of load at `connections` against `url`, or against `urls` in turn
 * (GET; each of wrk's threads starts at its own place in the list). `sequential`: one request
 * at a time from this process instead (node:http on one kept-alive connection), which records
 * every latency, so p95 too: the measure of a server's own answer time.
 * Returns { rps, p50, p99 (ms), cpuPerRequestUs, requests, non2xx, socketErrors, timeouts }
 * (and p95 when sequential).
 */
export async function measure({
  url,
  urls,
  sequential = false,
  headers = {},
  seconds,
  connections = 50,
  pid,
  method = 'GET',
  body,
}) {
  if (pid) await waitForIdle(pid);
  const cpuBefore = pid ? cpuMs(pid) : NaN;
  const options = { url, urls, headers, seconds, connections, method, body };
  const result = sequential
    ? await runSequential({ urls: urls ?? [url], headers, seconds })
    : loadTool === 'wrk'
      ? await runWrk(options)
      : await runAutocannon(options);
  const cpu = pid ? cpuMs(pid) - cpuBefore : NaN;
  if (!(result.requests > 0)) return { ...result, rps: 0, p50: NaN, p95: NaN, p99: NaN, cpuPerRequestUs: NaN };
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

async function runWrk({ url, urls, headers, seconds, connections, method, body }) {
  const threads = Math.min(2, connections); // wrk wants at least one connection per thread
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '--latency'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  let script;
  if (urls) {
    script = join(tmpdir(), `snapgraph-wrk-${process.pid}-${++scriptCounter}.lua`);
    const paths = urls.map((u) => {
      const parsed = new URL(u);
      return parsed.pathname + parsed.search;
    });
    const lua = [
      `local paths = {${paths.map((p) => JSON.stringify(p)).join(',\n')}}`,
      'local started = 0',
      // Each thread starts at its own place in the list.
      'function setup(thread) thread:set("at", started); started = started + math.floor(#paths / 2) + 1 end',
      'function request() at = at % #paths + 1; return wrk.format(nil, paths[at]) end',
      '',
    ].join('\n');
    writeFileSync(script, lua);
    args.push('-s', script);
    url = urls[0];
  } else if (method !== 'GET' || body !== undefined) {
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

async function runAutocannon({ url, urls, headers, seconds, connections, method, body }) {
  const { default: autocannon } = await import('autocannon');
  let at = 0;
  const paths = urls?.map((u) => {
    const parsed = new URL(u);
    return parsed.pathname + parsed.search;
  });
  const result = await autocannon({
    url: urls ? urls[0] : url,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    duration: seconds,
    connections,
    method,
    body,
    timeout: 10,
    ...(paths && { requests: [{ setupRequest: (req) => ({ ...req, path: paths[at++ % paths.length] }) }] }),
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

/**
 * Sequential GETs over one kept-alive connection for `seconds`, starting at a random place in
 * `urls`; every latency is kept. A request that does not answer in 10 s counts as a timeout.
 */
async function runSequential({ urls, headers, seconds }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = [];
  let non2xx = 0;
  let timeouts = 0;
  let socketErrors = 0;
  let at = Math.floor(Math.random() * urls.length);
  const started = performance.now();
  const until = started + seconds * 1000;
  try {
    while (performance.now() < until) {
      const url = urls[at++ % urls.length];
      const sent = performance.now();
      const status = await new Promise((resolve) => {
        const req = http.get(url, { agent, headers, timeout: 10_000 }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
          res.on('error', () => resolve('error'));
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', (err) => resolve(err.message === 'timeout' ? 'timeout' : 'error'));
      });
      if (status === 'timeout') timeouts++;
      else if (status === 'error') socketErrors++;
      else {
        latencies.push(performance.now() - sent);
        if (status < 200 || status > 299) non2xx++;
      }
    }
  } finally {
    agent.destroy();
  }
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return {
    rps: latencies.length / elapsed,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    requests: latencies.length,
    non2xx,
    socketErrors,
    timeouts,
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
