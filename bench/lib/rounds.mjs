// Two ways of putting variants side by side, so that machine noise and drift hit them alike.
// Ratios are taken per round (a variant against its baseline in the same round).
//
// - Interleaved rounds: every round starts each variant's server in turn (A, B, C, A, B, C, …),
//   warms it up and measures each of its operations. Right where a variant changes what the
//   server holds (its data, its process), and for comparing different programs.
// - Alternating rounds: every variant's server runs at once, and short measurements alternate
//   between them (A B C, B C A, C A B, …), a few seconds apart; this is repeated on fresh
//   processes (generations). Right for an effect of a few percent between builds of one program:
//   a round's ratio compares two measurements taken seconds apart, not a minute apart, and the
//   luck of one process start (JIT, heap layout) is shared out over several generations.
import { measure, summarize } from './load.mjs';

/**
 * variants: [{ name, start: async (round) => server,
 *              ops: [{ op, url(server) | urls(server), sequential?, headers?, method?, body?, connections? }],
 *              after?: async (server, round) => void }],
 * where headers is an object or a function of the server, and `after` runs once the operations
 * are measured, before the server stops.
 * Returns samples keyed `${variant}|${op}`, one measurement per round each. `alternate`: every
 * other round takes the variants in reverse order (A B, B A, …), so that neither always runs first.
 */
export async function runInterleaved({
  scenario,
  rounds,
  seconds,
  warmupSeconds,
  connections,
  variants,
  allowNoResponse = false,
  alternate = false,
}) {
  const samples = {};
  for (let round = 1; round <= rounds; round++) {
    for (const variant of alternate && round % 2 === 0 ? [...variants].reverse() : variants) {
      const server = await variant.start(round);
      try {
        for (const op of variant.ops) {
          const load = { op, server, connections: op.connections ?? connections, allowNoResponse };
          const what = `${variant.name} ${op.op}`;
          if (warmupSeconds > 0)
            await measureOne({ ...load, seconds: warmupSeconds, what: `${what} (warm-up)`, allowNoResponse: true });
          const sample = await measureOne({ ...load, seconds, what });
          (samples[`${variant.name}|${op.op}`] ??= []).push(sample);
          logSample(scenario, `round ${round}/${rounds} ${what}`, sample);
        }
        await variant.after?.(server, round);
      } finally {
        await server.stop();
      }
    }
  }
  return samples;
}

/**
 * Same variants and result as runInterleaved (without `after`): `generations` times, every
 * variant's server is started, all are warmed up, then `rotations` × (number of variants) rounds
 * each measure every variant once, the order rotating by one each round, so that every variant
 * comes first, second, … equally often. Returns one sample per round and generation for every
 * variant and operation, in the same order for every variant so that pairedRatio pairs them.
 */
export async function runAlternating({
  scenario,
  generations,
  rotations,
  seconds,
  warmupSeconds,
  connections,
  variants,
}) {
  const samples = {};
  const rounds = rotations * variants.length;
  for (let generation = 1; generation <= generations; generation++) {
    const servers = [];
    try {
      // Started in an order that rotates by generation too: the first process started measured a
      // few percent slower than its twins in some runs.
      for (let k = 0; k < variants.length; k++) {
        const i = (k + generation - 1) % variants.length;
        servers[i] = await variants[i].start(generation);
      }
      for (const [i, variant] of variants.entries())
        for (const op of variant.ops)
          if (warmupSeconds > 0)
            await measureOne({
              op,
              server: servers[i],
              connections,
              seconds: warmupSeconds,
              what: `${variant.name} ${op.op} (warm-up)`,
              allowNoResponse: true,
            });
      for (let round = 1; round <= rounds; round++) {
        for (let k = 0; k < variants.length; k++) {
          const i = (k + round - 1) % variants.length;
          const variant = variants[i];
          for (const op of variant.ops) {
            const what = `${variant.name} ${op.op}`;
            const sample = await measureOne({ op, server: servers[i], connections, seconds, what });
            (samples[`${variant.name}|${op.op}`] ??= []).push(sample);
            logSample(scenario, `generation ${generation}/${generations} round ${round}/${rounds} ${what}`, sample);
          }
        }
      }
    } finally {
      await Promise.all(servers.filter(Boolean).map((server) => server.stop()));
    }
  }
  return samples;
}

/** One measurement of one operation; a crash or a non-2xx fails the run (see check). */
async function measureOne({ op, server, connections, seconds, what, allowNoResponse = false }) {
  const sample = await measure({
    url: op.url?.(server),
    urls: op.urls?.(server),
    sequential: op.sequential,
    headers: typeof op.headers === 'function' ? op.headers(server) : (op.headers ?? {}),
    method: op.method ?? 'GET',
    body: op.body,
    connections,
    seconds,
    pid: server.pid,
  });
  check(sample, server, what, allowNoResponse);
  return sample;
}

function logSample(scenario, what, sample) {
  const timeouts = sample.timeouts > 0 ? `, ${sample.timeouts} timeouts` : '';
  console.error(
    `[${scenario}] ${what}: ${sample.rps.toFixed(0)} req/s, ` +
      `p50 ${sample.p50.toFixed(2)} ms, ${sample.p95 === undefined ? '' : `p95 ${sample.p95.toFixed(2)} ms, `}` +
      `p99 ${sample.p99.toFixed(2)} ms, ` +
      `${sample.cpuPerRequestUs.toFixed(0)} µs CPU/req${timeouts}`,
  );
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
