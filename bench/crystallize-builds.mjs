// Crystallize of 10,000 characters (the built-in extractor) on this checkout's build against
// another checkout's (the commit before an extraction change), in one run: both servers up at
// once, each on a database of its own (its own migrations), the requests alternating between
// them so that the machine's load falls on both alike. p50/p95 of each, their ratio, and each
// server's CPU time a request.
//   --kind bench:   the texts of bench/crystallize.mjs (cue-phrase sentences, paragraphs);
//   --kind samples: the meetings, notes and how-to of bench/crystallize-samples.json repeated
//                   to 10,000 characters (bulleted notes, detected as Markdown).
//
//   mkdir ../before && git archive <commit> | tar -x -C ../before && ln -s "$PWD/node_modules" ../before/ && (cd ../before && npx tsc -b packages/server)
//   npm run build && node bench/crystallize-builds.mjs --other ../before [--kind bench|samples] [--requests 30]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runMain } from './lib/cleanup.mjs';
import { requestJson } from './lib/http.mjs';
import { CLI, cpuMs, prepareDatabase, startNodeServer } from './lib/server.mjs';
import { cueText } from './lib/cue-text.mjs';

const { values } = parseArgs({
  options: {
    other: { type: 'string' },
    kind: { type: 'string', default: 'bench' },
    requests: { type: 'string', default: '30' },
  },
});
if (!values.other) {
  console.error('usage: node bench/crystallize-builds.mjs --other <checkout> [--kind bench|samples]');
  process.exit(2);
}
const REQUESTS = Number(values.requests);
const SIZE = 10_000;

/** bench/crystallize.mjs's text (bench/lib/cue-text.mjs). */
const benchText = (seed) => cueText(seed, SIZE);

const samples = JSON.parse(readFileSync(new URL('./crystallize-samples.json', import.meta.url), 'utf8')).samples;
/** The samples from the seed-th on, repeated to the size; the seed makes each text new to the brain. */
function samplesText(seed) {
  let text = '';
  for (let i = seed; text.length < SIZE; i++) text += `${samples[i % samples.length].text}\n\n`;
  return `Notes ${seed}\n\n${text}`.slice(0, SIZE).replace(/\s+\S*$/, '.');
}
const textOf = values.kind === 'samples' ? samplesText : benchText;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

await runMain(async () => {
  const builds = [
    { name: 'this build', cli: CLI },
    { name: `other (${values.other})`, cli: join(resolve(values.other), 'packages/server/bin/snapgraph.js') },
  ];
  for (const build of builds) {
    const db = prepareDatabase();
    build.key = db.key;
    build.server = await startNodeServer({
      name: build.name,
      args: [build.cli, 'serve'],
      env: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info' },
    });
    build.times = [];
  }
  try {
    const post = (build, text) =>
      requestJson('POST', `${build.server.base}/v1/crystallize`, {
        headers: { authorization: `Bearer ${build.key}` },
        body: { text },
        timeoutMs: 120_000,
      });
    // Warm-up: the first request loads the extractor's language model.
    for (const build of builds) await post(build, textOf(0));
    for (const build of builds) build.cpu = cpuMs(build.server.pid);
    for (let i = 1; i <= REQUESTS; i++) {
      for (const build of i % 2 === 1 ? builds : [...builds].reverse()) {
        const started = performance.now();
        await post(build, textOf(i));
        build.times.push(performance.now() - started);
      }
    }
    const stats = builds.map((build) => {
      const sorted = [...build.times].sort((a, b) => a - b);
      const cpu = (cpuMs(build.server.pid) - build.cpu) / REQUESTS;
      console.log(
        `${build.name}: p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, ` +
          `server CPU ${cpu.toFixed(0)} ms a request`,
      );
      return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), cpu };
    });
    const [ours, theirs] = stats;
    console.log(
      `this ÷ other (${values.kind}, ${REQUESTS} texts of ${SIZE} characters each): p50 ${(ours.p50 / theirs.p50).toFixed(2)}, ` +
        `p95 ${(ours.p95 / theirs.p95).toFixed(2)} (target <= 1.2), CPU ${(ours.cpu / theirs.cpu).toFixed(2)}`,
    );
  } finally {
    for (const build of builds) await build.server.stop();
  }
});
