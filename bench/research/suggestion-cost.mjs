// GET /v1/snapshots/:id/suggestions on real paragraphs (a search-eval set, loaded once without
// edges) answered by this build and by another checkout's, in alternating rounds on one database:
// what a change to the linker's rules costs each snapshot it links (docs/ranking.md, "Automatic
// edges"). The other checkout must have run `npm run build` (or `npx tsc -b packages/server`).
//   npm run build && node bench/research/suggestion-cost.mjs --other <checkout>
//       [--backend sqlite|postgres] [--set musique|hotpotqa] [--rounds 4] [--count 300]
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runMain } from '../lib/cleanup.mjs';
import { loadSet } from '../lib/eval-data.mjs';
import { loadBrain } from '../lib/eval-load.mjs';
import { median } from '../lib/load.mjs';
import { createBenchDatabase } from '../lib/postgres.mjs';
import { prepareDatabase, REPO, startNodeServer } from '../lib/server.mjs';

const { values } = parseArgs({
  options: {
    other: { type: 'string' },
    backend: { type: 'string', default: 'sqlite' },
    set: { type: 'string', default: 'musique' },
    data: { type: 'string', default: join(REPO, '../shared/search-eval/data') },
    rounds: { type: 'string', default: '4' },
    count: { type: 'string', default: '300' },
  },
});
if (!values.other) throw new Error('--other <checkout> is required');
const builds = { this: REPO, other: resolve(values.other) };

await runMain(async () => {
  const db =
    values.backend === 'postgres'
      ? prepareDatabase({ databaseUrl: (await createBenchDatabase()).url })
      : prepareDatabase({ parentDir: '/dev/shm' });
  const headers = { authorization: `Bearer ${db.key}` };
  const start = (root) =>
    startNodeServer({
      name: root,
      args: [join(root, 'packages/server/bin/snapgraph.js'), 'serve'],
      env: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'warn', BACKGROUND_WORK: 'false' },
    });
  try {
    let server = await start(REPO);
    const brain = await loadBrain(server.base, headers, loadSet(values.data, values.set), {
      name: values.set,
      edges: false,
    });
    await server.stop();
    const ids = [...brain.refOf.keys()];
    const step = Math.max(1, Math.floor(ids.length / Number(values.count)));
    const asked = ids.filter((_, i) => i % step === 0).slice(0, Number(values.count));
    const times = { this: [], other: [] };
    for (let round = 0; round < Number(values.rounds); round++) {
      const order = round % 2 === 0 ? ['this', 'other'] : ['other', 'this'];
      for (const label of order) {
        server = await start(builds[label]);
        const suggest = async (id) => {
          const started = performance.now();
          const res = await fetch(`${server.base}/v1/snapshots/${id}/suggestions`, { headers });
          if (res.status !== 200) throw new Error(`suggestions: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
          return performance.now() - started;
        };
        for (const id of asked.slice(0, 20)) await suggest(id); // warm the caches
        for (const id of asked) times[label].push(await suggest(id));
        await server.stop();
      }
    }
    for (const [label, list] of Object.entries(times)) {
      const sorted = [...list].sort((a, b) => a - b);
      const p95 = sorted[Math.floor(0.95 * (sorted.length - 1))];
      console.log(
        `${label.padEnd(6)} p50 ${median(list).toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  mean ${mean(list).toFixed(2)} ms`,
      );
    }
    console.log(`mean ratio this/other: ${(mean(times.this) / mean(times.other)).toFixed(3)}`);
  } finally {
    await db.cleanup();
  }
});

function mean(list) {
  return list.reduce((a, b) => a + b, 0) / list.length;
}
