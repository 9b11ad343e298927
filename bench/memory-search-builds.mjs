// Memory search latency of this checkout's build against another checkout's (the commit before a
// ranking change, in a git worktree), in one run: one SQLite database of 100,000 memories
// (bench/scenarios/memories.mjs's Zipf text, in sessions of 20), migrated by this checkout, and
// each build's server started on it in turn for alternating sequential measurements. A build
// that keeps memory words in memory (store/sqlite/memory-word-index/) is measured once its first
// search has had the brain's index built (it logs "memory word index built"), as
// snapshot-search-builds.mjs waits for the snapshot text index: a server's steady state.
//
//   git worktree add ../before <commit> && (cd ../before && npm ci && npm run build)
//   npm run build && node bench/memory-search-builds.mjs --other ../before [--other ../another…]
//     [--rounds N] [--seconds S] [--count N] [--passes P]
//
// Prints each build's median p50, p95, requests a second and server CPU per request over the
// rounds; CPU per request is the steadiest of these on a loaded machine. With --passes, a round
// is no longer timed: its server answers the 500 queries once (each query's first search since
// the server started: the turns, counts and rows it keeps are not there yet), then P times more,
// and each part is printed apart. A timed round on a loaded machine holds fewer searches, more
// of them first ones, so builds measured at different loads differ in that mix too.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain } from './lib/cleanup.mjs';
import { median } from './lib/load.mjs';
import { prepareDatabase, startNodeServer } from './lib/server.mjs';
import { queries, searchLatency, seedMemories } from './scenarios/memories.mjs';

const { values } = parseArgs({
  options: {
    other: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    count: { type: 'string', default: '100000' },
    passes: { type: 'string' },
  },
});
if (!values.other?.length) {
  console.error('usage: node bench/memory-search-builds.mjs --other <checkout>');
  process.exit(2);
}

await runMain(async () => {
  const db = prepareDatabase();
  seedMemories(db.databaseUrl, { accountId: db.account_id, brainId: db.brain_id, count: Number(values.count) });
  const list = queries();
  const builds = [
    { name: 'this checkout', checkout: resolve('.') },
    ...values.other.map((other) => ({ name: `other (${other})`, checkout: resolve(other) })),
  ].map((b) => ({
    ...b,
    cli: join(b.checkout, 'packages/server/bin/snapgraph.js'),
    // The index's entry: one file in builds before it became a folder (word-index/index.js), then
    // under store/sqlite (memory-word-index/index.js).
    wordIndex: [
      'domain/memories/word-index.js',
      'domain/memories/word-index/index.js',
      'store/sqlite/memory-word-index/index.js',
    ].some((entry) => existsSync(join(b.checkout, 'packages/server/dist', entry))),
  }));
  const samples = new Map(builds.map((b) => [b.name, []]));
  const passes = values.passes === undefined ? undefined : Number(values.passes);
  const firsts = new Map(builds.map((b) => [b.name, []]));
  const said = (s) =>
    `p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, CPU ${(s.cpuPerRequestUs / 1000).toFixed(2)} ms a request`;
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const build of round % 2 ? builds : [...builds].reverse()) {
      const server = await startNodeServer({
        name: build.name,
        args: [build.cli, 'serve'],
        env: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info', MIGRATE_ON_START: 'false' },
      });
      try {
        if (build.wordIndex) {
          await searchLatency(server, db.key, db.brain_id, list.slice(0, 1), 0.05);
          await server.waitForLine(/memory word index built/, 120_000);
        }
        if (passes !== undefined) {
          const first = await searchLatency(server, db.key, db.brain_id, list, Infinity, list.length);
          const again = await searchLatency(server, db.key, db.brain_id, list, Infinity, passes * list.length);
          firsts.get(build.name).push(first);
          samples.get(build.name).push(again);
          console.error(`round ${round} ${build.name}: first pass ${said(first)}; ${passes} more ${said(again)}`);
          continue;
        }
        await searchLatency(server, db.key, db.brain_id, list, 2);
        const sample = await searchLatency(server, db.key, db.brain_id, list, Number(values.seconds));
        samples.get(build.name).push(sample);
        console.error(`round ${round} ${build.name}: ${said(sample)}`);
      } finally {
        await server.stop();
      }
    }
  }
  const line = (name, s) =>
    `| ${name} | ${median(s.map((x) => x.p50)).toFixed(2)} | ${median(s.map((x) => x.p95)).toFixed(2)} | ` +
    `${median(s.map((x) => x.requests / x.seconds)).toFixed(0)} | ` +
    `${(median(s.map((x) => x.cpuPerRequestUs)) / 1000).toFixed(2)} | ${median(s.map((x) => x.meanHits)).toFixed(0)} |`;
  const table = (title, kept) => {
    console.log(`${title}\n`);
    console.log('| build | p50 ms | p95 ms | req/s | CPU ms a request | mean count |\n|---|---|---|---|---|---|');
    for (const build of builds) console.log(line(build.name, kept.get(build.name)));
    const ours = kept.get(builds[0].name);
    for (const build of builds.slice(1)) {
      const theirs = kept.get(build.name);
      const ratio = (key) => median(ours.map((x) => x[key])) / median(theirs.map((x) => x[key]));
      const rate = (x) => x.requests / x.seconds;
      console.log(
        `\nthis ÷ ${build.name}: p95 ${ratio('p95').toFixed(2)}, req/s ` +
          `${(median(ours.map(rate)) / median(theirs.map(rate))).toFixed(2)}, CPU a request ${ratio('cpuPerRequestUs').toFixed(2)}\n`,
      );
    }
  };
  const memories = `memory search, ${Number(values.count).toLocaleString('en')} memories, 1 connection, sequential`;
  if (passes === undefined) table(memories, samples);
  else {
    table(`${memories}: each query's first search`, firsts);
    table(`${memories}: ${passes} passes more`, samples);
  }
});
