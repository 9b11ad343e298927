// Runs benchmark scenarios and reports them as markdown: a summary of the targets, then one
// section per scenario. Used by bench/run.mjs (everything) and by the single-scenario scripts.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as deepPages from '../scenarios/deep-pages.mjs';
import * as memories from '../scenarios/memories.mjs';
import * as postgres from '../scenarios/postgres.mjs';
import * as ratelimit from '../scenarios/ratelimit.mjs';
import * as reads from '../scenarios/reads.mjs';
import * as search from '../scenarios/search.mjs';
import * as searchQuality from '../scenarios/search-quality.mjs';
import * as sustainedWrites from '../scenarios/sustained-writes.mjs';
import * as writes from '../scenarios/writes.mjs';
import { cleanupAll, stopChildren } from './cleanup.mjs';
import { loadTool, loadToolVersion } from './load.mjs';
import { postgresVersion } from './postgres.mjs';
import { machineDescription, targetsTable } from './report.mjs';
import { REPO } from './server.mjs';

export const SCENARIOS = Object.fromEntries(
  [reads, writes, sustainedWrites, deepPages, postgres, ratelimit, search, searchQuality, memories].map((s) => [
    s.id,
    s,
  ]),
);

const USAGE = `Usage: node bench/run.mjs [--quick] [--rounds N] [--seconds S] [--warmup S] [--connections N]
                         [--only ${Object.keys(SCENARIOS).join(',')}]
                         search: [--large] (also 1,000,000 snapshots and 3,000,000 edges)
                         search-quality: [--data DIR] [--set musique|hotpotqa] [--backend sqlite|postgres]`;

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '50' },
      only: { type: 'string' },
      data: { type: 'string' },
      set: { type: 'string' },
      backend: { type: 'string' },
      large: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const quick = values.quick;
  const ctx = {
    quick,
    rounds: Number(values.rounds ?? (quick ? 1 : 3)),
    seconds: Number(values.seconds ?? (quick ? 1 : 5)),
    warmupSeconds: Number(values.warmup ?? (quick ? 0 : 1)),
    connections: Number(values.connections),
  };
  const scenarioOptions = { data: values.data, set: values.set, backend: values.backend, large: values.large };
  for (const [name, value] of Object.entries(ctx)) {
    if (
      name !== 'quick' &&
      !(Number.isInteger(value) && value >= (name === 'warmupSeconds' ? 0 : 1) && value <= 1000)
    ) {
      throw new Error(`--${name === 'warmupSeconds' ? 'warmup' : name} must be a whole number in range\n${USAGE}`);
    }
  }
  return { ...values, ctx: { ...ctx, ...scenarioOptions } };
}

/** Warns when the built server is older than its sources (the owner rebuilds with npm run build). */
function checkBuild() {
  const newest = (dir) =>
    readdirSync(dir, { recursive: true }).reduce((max, file) => {
      const stat = statSync(join(dir, file));
      return stat.isFile() ? Math.max(max, stat.mtimeMs) : max;
    }, 0);
  const dist = join(REPO, 'packages/server/dist');
  let built;
  try {
    built = newest(dist);
  } catch {
    throw new Error('packages/server/dist is missing: run npm run build first');
  }
  if (newest(join(REPO, 'packages/server/src')) > built) {
    console.error('WARNING: packages/server/src is newer than dist: run npm run build to measure the current code');
  }
}

/** `reportName` (e.g. "search-quality") goes into the saved report's file name: <date>-<name>.md. */
export async function runSuite({
  argv = process.argv.slice(2),
  defaults = Object.keys(SCENARIOS),
  save = false,
  reportName = '',
} = {}) {
  let failed = false;
  try {
    const { ctx, only, help } = options(argv);
    if (help) {
      console.log(USAGE);
      return 0;
    }
    const chosen = only ? only.split(',').map((s) => s.trim()) : defaults;
    for (const name of chosen) if (!SCENARIOS[name]) throw new Error(`unknown scenario "${name}"\n${USAGE}`);
    checkBuild();
    const started = Date.now();
    const settings =
      `${ctx.connections} connections, ${ctx.rounds} interleaved round(s) of ${ctx.seconds} s per measurement, ` +
      (ctx.warmupSeconds > 0 ? `${ctx.warmupSeconds} s warm-up before each` : 'no warm-up') +
      (ctx.quick ? ' (--quick smoke run: not a measurement)' : '');
    const header = machineDescription({ loadToolVersion, postgresVersion: await postgresVersion(), settings });

    const targets = [];
    const sections = [];
    for (const name of chosen) {
      console.error(`\n== ${name}`);
      try {
        const result = await SCENARIOS[name].run(ctx);
        targets.push(...result.targets);
        sections.push(...result.sections);
      } catch (err) {
        failed = true;
        console.error(`[${name}] FAILED: ${err.stack ?? err}`);
        await stopChildren(); // a server the failed scenario left running must not load the next one
        sections.push(`## ${name}\n\n**Failed:** ${String(err.message ?? err).split('\n')[0]}`);
      }
    }
    const report = [
      '# Snapgraph benchmarks',
      header,
      'Every ratio is taken per round between servers measured in the same run, then summarized as median ' +
        '(min–max). Snapgraph runs as shipped: authentication, rate limits with an enterprise key whose limits ' +
        'never bind, LOG_LEVEL=info with stdout drained. Server CPU is user + system time of the server process ' +
        `during the measurement, per request. Load generator: ${loadTool}. Total time ${((Date.now() - started) / 60_000).toFixed(1)} min.`,
      '## Targets',
      targetsTable(targets),
      ...sections,
    ].join('\n\n');
    console.log(`\n${report}`);
    if (save) {
      const dir = join(REPO, 'bench/results');
      mkdirSync(dir, { recursive: true });
      const file = join(
        dir,
        `${new Date().toISOString().slice(0, 10)}${reportName ? `-${reportName}` : ''}${ctx.quick ? '-quick' : ''}.md`,
      );
      writeFileSync(file, `${report}\n`);
      console.error(`\nwritten to ${file}`);
    }
  } catch (err) {
    failed = true;
    console.error(err.stack ?? String(err));
  } finally {
    await cleanupAll();
  }
  return failed ? 1 : 0;
}
