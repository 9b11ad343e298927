// Two builds of Snapgraph side by side: this checkout's against another checkout's (a branch in a
// git worktree, say), both serving one database, with alternating measurements of GET one and
// POST (see lib/rounds.mjs, "alternating rounds"). For a change whose effect is a few percent,
// or one that rewrites a layer (the PostgreSQL driver was decided this way).
//
//   git worktree add ../other some-branch && (cd ../other && npm ci)
//   npm run build && node bench/compare-builds.mjs --other ../other [--backend sqlite|postgres]
//       [--generations N] [--seconds S] [--quick]
//
// Both builds must have run `npm run build`; both use this checkout's schema (migrated first).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain } from './lib/cleanup.mjs';
import { loadTool, summarize } from './lib/load.mjs';
import { createBenchDatabase, postgresAnswers } from './lib/postgres.mjs';
import { range, ratio } from './lib/report.mjs';
import { pairedRatio, runAlternating } from './lib/rounds.mjs';
import { seedPostgres, seedSqlite } from './lib/seed.mjs';
import { prepareDatabase, REPO, startNodeServer } from './lib/server.mjs';
import { SNAPSHOT_BODY } from './scenarios/writes.mjs';

const { values } = parseArgs({
  options: {
    other: { type: 'string' },
    backend: { type: 'string', default: 'postgres' },
    generations: { type: 'string' },
    seconds: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
if (!values.other || !['sqlite', 'postgres'].includes(values.backend)) {
  console.error('usage: node bench/compare-builds.mjs --other <checkout> [--backend sqlite|postgres]');
  process.exit(2);
}
const quick = values.quick;
const generations = Number(values.generations ?? (quick ? 1 : 3));
const seconds = Number(values.seconds ?? (quick ? 1 : 4));
const SIZES = { snapshots: 10_000, edges: 30_000 };

async function prepare() {
  if (values.backend === 'sqlite') {
    const db = prepareDatabase();
    return { db, seed: seedSqlite(db.databaseUrl, { accountId: db.account_id, brainId: db.brain_id, ...SIZES }) };
  }
  if (!(await postgresAnswers())) throw new Error('PostgreSQL does not answer (SNAPGRAPH_BENCH_POSTGRES_URL)');
  const db = prepareDatabase({ databaseUrl: (await createBenchDatabase()).url });
  return { db, seed: await seedPostgres(db.databaseUrl, { accountId: db.account_id, brainId: db.brain_id, ...SIZES }) };
}

async function main() {
  const { db, seed } = await prepare();
  const headers = { authorization: `Bearer ${db.key}` };
  const ops = [
    { op: 'GET one', url: (s) => `${s.base}/v1/snapshots/${seed.sampleId}`, headers },
    { op: 'POST', url: (s) => `${s.base}/v1/snapshots`, method: 'POST', body: SNAPSHOT_BODY, headers },
  ];
  const build = (name, checkout) => ({
    name,
    ops,
    start: () =>
      startNodeServer({
        name,
        args: [resolve(checkout, 'packages/server/bin/snapgraph.js'), 'serve'],
        env: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info' },
      }),
  });
  const variants = [build('this build', REPO), build('other build', values.other)];
  const rotations = 3;
  const samples = await runAlternating({
    scenario: 'compare-builds',
    generations,
    rotations,
    seconds,
    warmupSeconds: quick ? 0 : 1,
    connections: 50,
    variants,
  });
  console.log(
    `\n${values.backend}, ${loadTool}, ${generations} generation(s) × ${rotations * variants.length} alternating rounds of ${seconds} s`,
  );
  for (const { op } of ops) {
    const mine = samples[`this build|${op}`];
    const other = samples[`other build|${op}`];
    const cells = (s) =>
      `${range(summarize(s, 'rps'))} req/s, ${range(summarize(s, 'cpuPerRequestUs'))} µs CPU/req, ` +
      `p99 ${range(summarize(s, 'p99'), 1)} ms`;
    console.log(`${op}: other ÷ this ${ratio(pairedRatio(other, mine))}`);
    console.log(`  this:  ${cells(mine)}\n  other: ${cells(other)}`);
  }
}

await runMain(main);
