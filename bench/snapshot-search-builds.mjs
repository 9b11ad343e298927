// Snapshot search speed of this checkout's build against another checkout's (the commit before a
// ranking change), in one run: one SQLite brain of 100,000 snapshots and 300,000 edges (the
// search scenario's Zipf text), each build's server started on it in turn, once its in-memory
// text index is built; graph=true at one connection (p50/p95) and at 10 connections (req/s),
// in alternating rounds.
//
//   mkdir ../before && git archive <commit> | tar -x -C ../before && ln -s "$PWD/node_modules" ../before/ && (cd ../before && npx tsc -b packages/server)
//   npm run build && node bench/snapshot-search-builds.mjs --other ../before [--rounds N] [--seconds S]
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain } from './lib/cleanup.mjs';
import { measure, median } from './lib/load.mjs';
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
const seconds = Number(values.seconds);

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
  const base = (server) =>
    list.map((q) => `${server.base}/v1/snapshots/search?q=${encodeURIComponent(q)}&brain_id=${db.brain_id}&limit=10`);
  const builds = [
    { name: 'this checkout', cli: resolve('packages/server/bin/snapgraph.js') },
    { name: `other (${values.other})`, cli: join(resolve(values.other), 'packages/server/bin/snapgraph.js') },
  ];
  const samples = new Map(builds.map((b) => [b.name, []]));
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const build of round % 2 ? builds : [...builds].reverse()) {
      const server = await startNodeServer({
        name: build.name,
        args: [build.cli, 'serve'],
        env: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info', MIGRATE_ON_START: 'false' },
      });
      try {
        await fetch(base(server)[0], { headers }).then((r) => r.arrayBuffer());
        await server.waitForLine(/search text index built/);
        await measure({ urls: base(server), sequential: true, headers, seconds: 2, pid: server.pid });
        const one = await measure({ urls: base(server), sequential: true, headers, seconds, pid: server.pid });
        const ten = await measure({ urls: base(server), headers, seconds, connections: 10, pid: server.pid });
        samples.get(build.name).push({ p50: one.p50, p95: one.p95, rps: ten.rps });
        console.error(
          `round ${round} ${build.name}: p50 ${one.p50.toFixed(2)} ms, p95 ${one.p95.toFixed(2)} ms, ${ten.rps.toFixed(0)} req/s`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const [ours, theirs] = builds.map((b) => samples.get(b.name));
  const m = (s, f) => median(s.map((x) => x[f]));
  console.log('snapshot search, graph=true, 100,000 snapshots and 300,000 edges\n');
  console.log('| build | p50 ms (1 conn.) | p95 ms (1 conn.) | req/s (10 conn.) |\n|---|---|---|---|');
  for (const [b, s] of [
    [builds[0], ours],
    [builds[1], theirs],
  ])
    console.log(`| ${b.name} | ${m(s, 'p50').toFixed(2)} | ${m(s, 'p95').toFixed(2)} | ${m(s, 'rps').toFixed(0)} |`);
  console.log(
    `\np95 this ÷ other: ${(m(ours, 'p95') / m(theirs, 'p95')).toFixed(2)}; req/s this ÷ other: ${(m(ours, 'rps') / m(theirs, 'rps')).toFixed(2)}`,
  );
});
