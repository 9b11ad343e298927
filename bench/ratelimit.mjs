// What the rate limiter costs on the hottest path, GET /v1/snapshots/:id: the same server with
// limits off, with the in-memory limiter, and (when Redis answers) with the Redis limiter,
// measured in interleaved rounds of one run so that machine noise hits all three alike.
//
//   node bench/ratelimit.mjs [--quick] [--rounds N] [--seconds S]
import { parseArgs } from 'node:util';
import { measure, summarize, loadTool } from './lib/load.mjs';
import { prepareDatabase, startSnapgraph } from './lib/server.mjs';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, rounds: { type: 'string' }, seconds: { type: 'string' } },
});
const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
const seconds = Number(values.seconds ?? (values.quick ? 1 : 8));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers() {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const db = prepareDatabase();
const variants = [
  { name: 'limits off', env: { RATE_LIMITS: 'false' } },
  { name: 'in-memory limiter', env: { RATE_LIMITS: 'true' } },
];
if (await redisAnswers()) variants.push({ name: 'Redis limiter', env: { RATE_LIMITS: 'true', REDIS_URL: redisUrl } });
else console.warn(`Redis not reachable at ${redisUrl}: measuring without the Redis variant`);

const headers = { authorization: `Bearer ${db.key}` };
let snapshotId;
const samples = Object.fromEntries(variants.map((v) => [v.name, []]));
for (let round = 1; round <= rounds; round++) {
  for (const variant of variants) {
    const server = await startSnapgraph({ databaseUrl: db.databaseUrl, env: variant.env });
    if (!snapshotId) {
      const res = await fetch(`${server.base}/v1/snapshots`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench', core: 'A snapshot of typical size', tags: ['a', 'b'] }),
      });
      snapshotId = (await res.json()).data.id;
    }
    const url = `${server.base}/v1/snapshots/${snapshotId}`;
    await measure({ url, headers, seconds: Math.max(1, Math.round(seconds / 4)), pid: server.pid }); // warm-up
    const sample = await measure({ url, headers, seconds, pid: server.pid });
    if (sample.non2xx > 0) throw new Error(`${variant.name}: ${sample.non2xx} non-2xx responses`);
    samples[variant.name].push(sample);
    await server.stop();
    console.error(`round ${round} ${variant.name}: ${sample.rps.toFixed(0)} req/s`);
  }
}
db.cleanup();

const base = summarize(samples['limits off'], 'rps').median;
console.log(
  `\nGET /v1/snapshots/:id, ${loadTool}, 50 connections, ${rounds} round(s) of ${seconds}s, ${new Date().toISOString()}\n`,
);
console.log('| variant | req/s median (min–max) | vs limits off | p50 ms | p99 ms | server CPU µs/req |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const variant of variants) {
  const s = samples[variant.name];
  const rps = summarize(s, 'rps');
  console.log(
    `| ${variant.name} | ${rps.median.toFixed(0)} (${rps.min.toFixed(0)}–${rps.max.toFixed(0)}) | ${(rps.median / base).toFixed(3)}× | ${summarize(s, 'p50').median.toFixed(2)} | ${summarize(s, 'p99').median.toFixed(2)} | ${summarize(s, 'cpuPerRequestUs').median.toFixed(0)} |`,
  );
}
