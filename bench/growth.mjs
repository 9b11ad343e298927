// Growth: what one brain of 1,000,000 snapshots and 3,000,000 edges costs against the same
// server on a brain of 10,000 snapshots and 30,000 edges — start-up time (spawn to the first
// 200 on /healthz), RSS after warm-up and load, and the throughput and p99 of GET one, the list
// and the edge list. Interleaved rounds (small, large, small, large, …). Not part of --quick.
//
//   node bench/growth.mjs [--snapshots N] [--edges M] [--rounds R] [--seconds S] [--quick]
//
// Needs about 3 GB of free disk in the temporary directory for the default sizes.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain } from './lib/cleanup.mjs';
import { checkSeededTotals } from './lib/http.mjs';
import { loadToolVersion, summarize } from './lib/load.mjs';
import { failures, machineDescription, range, ratio, table } from './lib/report.mjs';
import { pairedRatio, runInterleaved } from './lib/rounds.mjs';
import { seedSqlite } from './lib/seed.mjs';
import { prepareDatabase, REPO, rssMiB, startSnapgraph } from './lib/server.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    snapshots: { type: 'string' },
    edges: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
  },
});
const quick = values.quick;
const large = {
  snapshots: Number(values.snapshots ?? (quick ? 40_000 : 1_000_000)),
  edges: Number(values.edges ?? (quick ? 120_000 : 3_000_000)),
};
const small = { snapshots: 10_000, edges: 30_000 };
const ctx = {
  rounds: Number(values.rounds ?? (quick ? 1 : 3)),
  seconds: Number(values.seconds ?? (quick ? 1 : 5)),
  warmupSeconds: Number(values.warmup ?? (quick ? 1 : 2)),
  connections: 50,
};

const LOADS = [
  { suffix: '', connections: ctx.connections },
  { suffix: ', 1 connection', connections: 1 },
];

function databaseSize(path) {
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    try {
      bytes += statSync(`${path}${suffix}`).size;
    } catch {
      // no WAL file
    }
  }
  return bytes / 2 ** 20;
}

async function main() {
  const sizes = { small, large };
  const brains = {};
  for (const [name, size] of Object.entries(sizes)) {
    const db = prepareDatabase();
    const started = Date.now();
    const seeded = seedSqlite(db.databaseUrl, {
      accountId: db.account_id,
      brainId: db.brain_id,
      ...size,
      label: `growth: seeding ${name}`,
    });
    brains[name] = {
      db,
      seeded,
      seedSeconds: (Date.now() - started) / 1000,
      fileMiB: databaseSize(db.databaseUrl),
      startupMs: [],
      idleRss: [],
      loadedRss: [],
    };
  }

  const variants = Object.entries(brains).map(([name, brain]) => {
    const headers = { authorization: `Bearer ${brain.db.key}` };
    return {
      name,
      start: async (round) => {
        const server = await startSnapgraph({ databaseUrl: brain.db.databaseUrl });
        brain.startupMs.push(server.startupMs);
        brain.idleRss.push(rssMiB(server.pid));
        if (round === 1) await checkSeededTotals(server.base, headers, brain.db.brain_id, sizes[name]);
        return server;
      },
      // Each at 50 connections (throughput; p99 there is mostly the wait for one of two cores
      // that wrk and the server share) and at one (p99 is then the server's own answer time).
      ops: LOADS.flatMap(({ suffix, connections }) => [
        { op: `GET one${suffix}`, url: (s) => `${s.base}/v1/snapshots/${brain.seeded.sampleId}`, headers, connections },
        { op: `list of 50${suffix}`, url: (s) => `${s.base}/v1/snapshots?limit=50`, headers, connections },
        {
          op: `edges, limit=200${suffix}`,
          url: (s) => `${s.base}/v1/edges?brain_id=${brain.db.brain_id}&limit=200`,
          headers,
          connections,
        },
      ]),
      after: (server) => brain.loadedRss.push(rssMiB(server.pid)),
    };
  });
  // On the large brain an unindexed count can take longer than the load generator waits (10 s).
  const samples = await runInterleaved({ scenario: 'growth', ...ctx, variants, allowNoResponse: true });

  const n = (x) => x.toLocaleString('en');
  const label = (size) => `${n(size.snapshots)} snapshots, ${n(size.edges)} edges`;
  const rows = [];
  const both = (f, digits = 0, unit = '') => {
    const a = f(brains.small);
    const b = f(brains.large);
    return [`${range(a, digits)}${unit}`, `${range(b, digits)}${unit}`, `${(b.median / a.median).toFixed(2)}×`];
  };
  const stats = (values) => ({
    median: summarize(values, (v) => v).median,
    min: Math.min(...values),
    max: Math.max(...values),
  });
  rows.push(['database file (MiB)', ...both((b) => stats([b.fileMiB]))]);
  rows.push(['seeding time (s)', ...both((b) => stats([b.seedSeconds]), 1)]);
  rows.push(['start-up: spawn to first 200 on /healthz (ms)', ...both((b) => stats(b.startupMs))]);
  rows.push(['RSS at start (MiB)', ...both((b) => stats(b.idleRss))]);
  rows.push(['RSS after warm-up and load (MiB)', ...both((b) => stats(b.loadedRss))]);
  for (const { suffix } of LOADS)
    for (const request of ['GET one', 'list of 50', 'edges, limit=200']) {
      const op = `${request}${suffix}`;
      const of = (b) => samples[`${b === brains.small ? 'small' : 'large'}|${op}`];
      rows.push([`${op}: req/s`, ...both((b) => summarize(of(b), 'rps'))]);
      rows.push([`${op}: server CPU µs/req`, ...both((b) => summarize(of(b), 'cpuPerRequestUs'))]);
      const p99 = both((b) => summarize(of(b), 'p99'), 2);
      p99[0] += failures(of(brains.small));
      p99[1] += failures(of(brains.large));
      p99[2] = ratio(pairedRatio(of(brains.large), of(brains.small), 'p99'));
      rows.push([`${op}: p99 ms`, ...p99]);
    }
  const report = [
    '# Snapgraph growth benchmark',
    machineDescription({
      loadToolVersion,
      postgresVersion: null,
      settings:
        `${ctx.connections} connections, ${ctx.rounds} interleaved round(s) of ${ctx.seconds} s per measurement, ` +
        `${ctx.warmupSeconds} s warm-up before each${quick ? ' (--quick: sizes reduced)' : ''}`,
    }),
    `One brain each; Snapgraph as shipped. Large: ${label(large)}; small: ${label(small)}. ` +
      'The last column is large ÷ small (for p99, per round).',
    table(['measure', `small (${label(small)})`, `large (${label(large)})`, 'large ÷ small'], rows),
  ].join('\n\n');
  console.log(`\n${report}`);
  const dir = join(REPO, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${new Date().toISOString().slice(0, 10)}-growth${quick ? '-quick' : ''}.md`);
  writeFileSync(file, `${report}\n`);
  console.error(`\nwritten to ${file}`);
}

await runMain(main);
