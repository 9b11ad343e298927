// What the rate limiter costs on the hottest path, GET /v1/snapshots/:id (formerly the whole of
// bench/ratelimit.mjs): the same server with limits off, with the in-memory limiter, and (when
// Redis answers) with the Redis limiter, in interleaved rounds.
import { cellsWithRatio, MEASUREMENT_HEADERS, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runInterleaved } from '../lib/rounds.mjs';
import { seedSqlite } from '../lib/seed.mjs';
import { prepareDatabase, startSnapgraph } from '../lib/server.mjs';

export const id = 'ratelimit';

/**
 * The effect measured here is a few percent, and one round's ratio on this shared machine moves
 * by ±20% (docs/performance.md), so this scenario takes at least this many rounds even when the
 * rest of the suite takes 3: a median of 3 is decided by one burst of load from elsewhere.
 */
const MIN_ROUNDS = 7;
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
  ];
  if (await redisAnswers())
    limiters.push({ name: 'Redis limiter (`REDIS_URL`)', env: { RATE_LIMITS: 'true', REDIS_URL: redisUrl } });
  else console.error(`[${id}] NOTICE: Redis not reachable at ${redisUrl}; measuring without the Redis variant`);

  const headers = { authorization: `Bearer ${db.key}` };
  const rounds = ctx.quick ? ctx.rounds : Math.max(ctx.rounds, MIN_ROUNDS);
  const samples = await runInterleaved({
    scenario: id,
    ...ctx,
    rounds,
    variants: limiters.map(({ name, env }) => ({
      name,
      start: () => startSnapgraph({ databaseUrl: db.databaseUrl, env }),
      ops: [{ op: 'GET one', url: (s) => `${s.base}/v1/snapshots/${seeded.sampleId}`, headers }],
    })),
  });
  db.cleanup();

  const off = samples[`${limiters[0].name}|GET one`];
  const rows = limiters.map(({ name }, i) => {
    const own = samples[`${name}|GET one`];
    return [name, ...cellsWithRatio(own, i === 0 ? '1.00×' : ratio(pairedRatio(own, off), 3))];
  });
  const memory = pairedRatio(samples[`${limiters[1].name}|GET one`], off);
  return {
    sections: [
      `## Rate limiter cost (GET /v1/snapshots/:id)\n\nThe same database and key; only the limiter changes. ` +
        `${rounds} interleaved round(s).\n\n` +
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
