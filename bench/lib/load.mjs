// Drives load with wrk when installed (it is not the bottleneck), else autocannon.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpuMs } from './server.mjs';

export const loadTool = (() => {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return probe.error ? 'autocannon' : 'wrk';
})();

function parseDuration(text) {
  const match = /([\d.]+)(us|ms|s|m)/.exec(text);
  if (!match) return NaN;
  const value = Number(match[1]);
  return { us: value / 1000, ms: value, s: value * 1000, m: value * 60_000 }[match[2]];
}

/**
 * One measurement: `seconds` of load at `connections` against `url`.
 * Returns { rps, p50, p99 (ms), cpuPerRequestUs, requests, non2xx }.
 */
export async function measure({ url, headers = {}, seconds, connections = 50, pid, method = 'GET', body }) {
  const cpuBefore = pid ? cpuMs(pid) : NaN;
  const result =
    loadTool === 'wrk'
      ? runWrk({ url, headers, seconds, connections, method, body })
      : await runAutocannon({ url, headers, seconds, connections, method, body });
  const cpu = pid ? cpuMs(pid) - cpuBefore : NaN;
  return { ...result, cpuPerRequestUs: (cpu * 1000) / result.requests };
}

function runWrk({ url, headers, seconds, connections, method, body }) {
  const args = ['-t', '2', '-c', String(connections), '-d', `${seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  let script;
  if (method !== 'GET' || body !== undefined) {
    script = `/tmp/snapgraph-wrk-${process.pid}.lua`;
    const lua = `wrk.method = ${JSON.stringify(method)}\nwrk.body = ${JSON.stringify(body ?? '')}\nwrk.headers["Content-Type"] = "application/json"\n`;
    execFileSync('sh', ['-c', `cat > ${script}`], { input: lua });
    args.push('-s', script);
  }
  args.push(url);
  const out = execFileSync('wrk', args, { encoding: 'utf8' });
  const requests = Number(/(\d+) requests in/.exec(out)?.[1]);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    // Anchored: "95.50%" in the thread stats must not pass for the 50th percentile.
    p50: parseDuration(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    p99: parseDuration(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    requests,
    non2xx,
  };
}

async function runAutocannon({ url, headers, seconds, connections, method, body }) {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    duration: seconds,
    connections,
    method,
    body,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
  };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function summarize(samples, field) {
  const values = samples.map((s) => s[field]);
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}
