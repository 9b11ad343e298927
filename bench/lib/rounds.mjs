// Interleaved rounds: every round starts each variant's server in turn (A, B, C, A, B, C, …),
// warms it up and measures each of its operations, so that machine noise and drift hit all
// variants alike. Ratios are taken per round (a variant against its baseline in the same round).
import { measure, summarize } from './load.mjs';

/**
 * variants: [{ name, start: async (round) => server, ops: [{ op, url(server), headers?, method?, body? }],
 *              after?: async (server, round) => void }],
 * where headers is an object or a function of the server, and `after` runs once the operations
 * are measured, before the server stops.
 * Returns samples keyed `${variant}|${op}`, one measurement per round each.
 */
export async function runInterleaved({
  scenario,
  rounds,
  seconds,
  warmupSeconds,
  connections,
  variants,
  allowNoResponse = false,
}) {
  const samples = {};
  for (let round = 1; round <= rounds; round++) {
    for (const variant of variants) {
      const server = await variant.start(round);
      try {
        for (const op of variant.ops) {
          const options = {
            url: op.url(server),
            headers: typeof op.headers === 'function' ? op.headers(server) : (op.headers ?? {}),
            method: op.method ?? 'GET',
            body: op.body,
            connections,
            pid: server.pid,
          };
          if (warmupSeconds > 0) {
            const warm = await measure({ ...options, seconds: warmupSeconds });
            check(warm, server, `${variant.name} ${op.op} (warm-up)`, true);
          }
          const sample = await measure({ ...options, seconds });
          check(sample, server, `${variant.name} ${op.op}`, allowNoResponse);
          (samples[`${variant.name}|${op.op}`] ??= []).push(sample);
          const timeouts = sample.timeouts > 0 ? `, ${sample.timeouts} timeouts` : '';
          console.error(
            `[${scenario}] round ${round}/${rounds} ${variant.name} · ${op.op}: ${sample.rps.toFixed(0)} req/s, ` +
              `p50 ${sample.p50.toFixed(2)} ms, p99 ${sample.p99.toFixed(2)} ms, ` +
              `${sample.cpuPerRequestUs.toFixed(0)} µs CPU/req${timeouts}`,
          );
        }
        await variant.after?.(server, round);
      } finally {
        await server.stop();
      }
    }
  }
  return samples;
}

/** A crash or a non-2xx fails the run; a measurement with no response at all only where allowed. */
function check(sample, server, what, allowNoResponse) {
  if (!server.alive()) throw new Error(`${what}: the server exited during the measurement`);
  if (sample.non2xx > 0) throw new Error(`${what}: ${sample.non2xx} non-2xx responses`);
  if (!(sample.requests > 0) && !allowNoResponse) throw new Error(`${what}: no request completed`);
}

/** Per-round ratios of a field between two sample lists (same rounds), summarized. */
export function pairedRatio(samples, baseline, field = 'rps', invert = false) {
  const ratios = samples.map((s, i) => (invert ? baseline[i][field] / s[field] : s[field] / baseline[i][field]));
  return summarize(ratios, (r) => (Number.isFinite(r) ? r : NaN));
}
