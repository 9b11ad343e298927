// Snapshot search speed of this checkout's build against another checkout's (the commit before a
// ranking change), in one run: one SQLite brain of 100,000 snapshots and 300,000 edges (the
// search scenario's Zipf text), each build's server started on it in turn, once its in-memory
// text index is built; graph=true at one connection (p50/p95) and at 10 connections (req/s),
// in alternating rounds (lib/rounds.mjs, runInterleaved).
//
//   mkdir ../before && git archive <commit> | tar -x -C ../before && ln -s "$PWD/node_modules" ../before/ && (cd ../before && npx tsc -b packages/server)
//   npm run build && node bench/snapshot-search-builds.mjs --other ../before [--rounds N] [--seconds S]
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain } from './lib/cleanup.mjs';
import { median } from './lib/load.mjs';
import { runInterleaved } from './lib/rounds.mjs';
import { seedSqlite } from './lib/seed.mjs';
import { prepareDatabase, startNodeServer } from './lib/server.mjs';
import { random, snapshotText, vocabulary } from './lib/zipf-text.mjs';

const { values } = parseArgs({
  options: {
    other: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
  },
});
if (!values.other) {
  console.error('usage: node bench/snapshot-search-builds.mjs --other <checkout>');
  process.exit(2);
}

/** Two-word queries of words ranked 100–3,000 in the vocabulary, as the search scenario's. */
function queries(words, count = 2_000) {
  const next = random(42);
  const [low, high] = [Math.log(100), Math.log(3_000)];
  const word = () => words[Math.floor(Math.exp(low + next() * (high - low)))];
  return Array.from({ length: count }, () => `${word()} ${word()}`);
}

await runMain(async () => {
  const db = prepareDatabase();
  const words = vocabulary(4_000);
  seedSqlite(db.databaseUrl, {
    accountId: db.account_id,
    brainId: db.brain_id,
    snapshots: 100_000,
    edges: 300_000,
    text: snapshotText({ words }),
    label: 'seeding 100k',
  });
  const list = queries(words);
  const headers = { authorization: `Bearer ${db.key}` };
  const urls = (server) =>
    list.map((q) => `${server.base}/v1/snapshots/search?q=${encodeURIComponent(q)}&brain_id=${db.brain_id}&limit=10`);
  const builds = [
    { name: 'this checkout', cli: resolve('packages/server/bin/snapgraph.js') },
    { name: `other (${values.other})`, cli: join(resolve(values.other), 'packages/server/bin/snapgraph.js') },
  ];
  const samples = await runInterleaved({
    scenario: 'snapshot-search-builds',
    rounds: Number(values.rounds),
    seconds: Number(values.seconds),
    warmupSeconds: 2,
    alternate: true,
    variants: builds.map((build) => ({
      name: build.name,
      // Measured once the server's text index is built, as a server runs.
      start: async () => {
        const server = await startNodeServer({
          name: build.name,
          args: [build.cli, 'serve'],
          env: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info', MIGRATE_ON_START: 'false' },
        });
        await fetch(urls(server)[0], { headers }).then((r) => r.arrayBuffer());
        await server.waitForLine(/search text index built/);
        return server;
      },
      ops: [
        { op: 'one', urls, sequential: true, headers },
        { op: 'ten', urls, headers, connections: 10 },
      ],
    })),
  });
  const m = (build, op, field) => median(samples[`${build.name}|${op}`].map((x) => x[field]));
  console.log('snapshot search, graph=true, 100,000 snapshots and 300,000 edges\n');
  console.log('| build | p50 ms (1 conn.) | p95 ms (1 conn.) | req/s (10 conn.) |\n|---|---|---|---|');
  for (const b of builds)
    console.log(
      `| ${b.name} | ${m(b, 'one', 'p50').toFixed(2)} | ${m(b, 'one', 'p95').toFixed(2)} | ${m(b, 'ten', 'rps').toFixed(0)} |`,
    );
  const [ours, theirs] = builds;
  console.log(
    `\np95 this ÷ other: ${(m(ours, 'one', 'p95') / m(theirs, 'one', 'p95')).toFixed(2)}; ` +
      `req/s this ÷ other: ${(m(ours, 'ten', 'rps') / m(theirs, 'ten', 'rps')).toFixed(2)}`,
  );
});
