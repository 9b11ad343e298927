// What the rate limiter costs on the hottest path, GET /v1/snapshots/:id (formerly the whole of
// bench/ratelimit.mjs): the same server with limits off, with the in-memory limiter, and (when
// Redis answers) with the Redis limiter, running side by side, measured in alternating rounds.
import { cellsWithRatio, MEASUREMENT_HEADERS, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runAlternating } from '../lib/rounds.mjs';
import { seedSqlite } from '../lib/seed.mjs';
import { prepareDatabase, startSnapgraph } from '../lib/server.mjs';

export const id = 'ratelimit';

/**
 * The effect measured here is a few percent, and a ratio of two servers measured a minute apart
 * on this shared machine moves by ±20% (docs/performance.md). So the servers run at once and
 * short measurements alternate between them, on three sets of fresh processes, each variant
 * taking every place in the order twice per set: with four variants, 24 ratios of measurements
 * taken seconds apart, whatever --rounds says (except --quick).
 */
const GENERATIONS = 3;
const ROTATIONS_PER_GENERATION = 2;
const SECONDS_PER_MEASUREMENT = 3;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAnswers() {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  redis.on('error', () => undefined);
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

export async function run(ctx) {
  const db = prepareDatabase();
  const seeded = seedSqlite(db.databaseUrl, {
    accountId: db.account_id,
    brainId: db.brain_id,
    snapshots: 1_000,
    label: 'ratelimit: seeding',
  });
  const limiters = [
    { name: 'limits off (`RATE_LIMITS=false`)', env: { RATE_LIMITS: 'false' } },
    { name: 'in-memory limiter', env: { RATE_LIMITS: 'true' } },
    // The same as the first, in its own process: how far two identical servers measured this way
    // differ in this run, the finest difference the run can resolve.
    { name: 'limits off again (control)', env: { RATE_LIMITS: 'false' } },
  ];
  if (await redisAnswers())
    limiters.push({ name: 'Redis limiter (`REDIS_URL`)', env: { RATE_LIMITS: 'true', REDIS_URL: redisUrl } });
  else console.error(`[${id}] NOTICE: Redis not reachable at ${redisUrl}; measuring without the Redis variant`);

  const headers = { authorization: `Bearer ${db.key}` };
  const shape = ctx.quick
    ? { generations: 1, rotations: 1, seconds: ctx.seconds }
    : { generations: GENERATIONS, rotations: ROTATIONS_PER_GENERATION, seconds: SECONDS_PER_MEASUREMENT };
  const samples = await runAlternating({
    scenario: id,
    ...ctx,
    ...shape,
    variants: limiters.map(({ name, env }) => ({
      name,
      start: () => startSnapgraph({ databaseUrl: db.databaseUrl, env }),
      ops: [{ op: 'GET one', url: (s) => `${s.base}/v1/snapshots/${seeded.sampleId}`, headers }],
    })),
  });
  db.cleanup();

  const off = samples[`${limiters[0].name}|GET one`];
  const again = samples[`${limiters[2].name}|GET one`];
  // The baseline of each round: the mean of the two limits-off servers, so that neither one's
  // luck (of start, of place) is taken for the limiter's cost.
  const bothOff = off.map((sample, i) => ({ rps: (sample.rps + again[i].rps) / 2 }));
  const rows = limiters.map(({ name }) => {
    const own = samples[`${name}|GET one`];
    return [name, ...cellsWithRatio(own, ratio(pairedRatio(own, bothOff), 3))];
  });
  const memory = pairedRatio(samples[`${limiters[1].name}|GET one`], bothOff);
  const control = pairedRatio(again, off);
  return {
    sections: [
      `## Rate limiter cost (GET /v1/snapshots/:id)\n\nThe same database and key; only the limiter changes. ` +
        `The servers run side by side; ${shape.generations} set(s) of fresh processes, ` +
        `${shape.rotations * limiters.length} alternating rounds of ${shape.seconds} s in each (the order rotating ` +
        `by one per round, so that each variant takes every place ${shape.rotations} time(s)). ` +
        `"vs limits off" is against the mean of the two limits-off servers in the same round. Those two, ` +
        `identical, measured ${ratio(control, 3)} of each other: the resolution of this run.\n\n` +
        table(['variant', MEASUREMENT_HEADERS[0], 'vs limits off', ...MEASUREMENT_HEADERS.slice(1)], rows),
    ],
    targets: [
      target(
        'rate limits',
        'in-memory limiter vs limits off (req/s)',
        ratio(memory, 3),
        '≥ 0.95× (< 5% cost)',
        memory.median >= 0.95,
      ),
    ],
  };
}
