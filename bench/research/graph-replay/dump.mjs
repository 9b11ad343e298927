// Loads both search-eval sets through the HTTP API (given edges, and auto_link with no given
// edges), then keeps what the graph formula needs to be replayed offline: each question's text
// parts (graph=false, explain=true, limit=100), its graph=true page, every edge and every
// snapshot's text. Read by replay.mjs.
//   npm run build && node bench/research/graph-replay/dump.mjs <data dir> <out.json> [sqlite|postgres]
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { URLSearchParams } from 'node:url';
import { loadSet } from '../../lib/eval-data.mjs';
import { inParallel, loadBrain, waitForBackgroundWork } from '../../lib/eval-load.mjs';
import { requestJson } from '../../lib/http.mjs';
import { createBenchDatabase } from '../../lib/postgres.mjs';
import { prepareDatabase, REPO, startSnapgraph } from '../../lib/server.mjs';
import { runMain } from '../../lib/cleanup.mjs';

const [dataDir, out, backend = 'sqlite'] = process.argv.slice(2);
if (!dataDir || !out) throw new Error('usage: dump.mjs <data dir> <out.json> [sqlite|postgres]');
const require = createRequire(`${REPO}/packages/server/package.json`);

await runMain(async () => {
  const db =
    backend === 'sqlite'
      ? prepareDatabase({ parentDir: '/dev/shm' })
      : prepareDatabase({ databaseUrl: (await createBenchDatabase()).url });
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const headers = { authorization: `Bearer ${db.key}` };
  const dump = { backend, sets: {} };
  try {
    for (const name of ['musique', 'hotpotqa']) {
      const set = loadSet(dataDir, name);
      const given = await loadBrain(server.base, headers, set, { name: `${name} given` });
      const auto = await loadBrain(server.base, headers, set, { name: `${name} auto`, autoLink: true, edges: false });
      await waitForBackgroundWork(server.base, headers, auto.brainId, { label: name });
      const brains = {};
      for (const [label, brain] of [
        ['given', given],
        ['auto', auto],
      ]) {
        const results = await inParallel(set.queries, 4, async (q) => {
          const get = async (graph, limit) => {
            const p = new URLSearchParams({
              q: q.q,
              brain_id: brain.brainId,
              limit: String(limit),
              graph: String(graph),
              explain: 'true',
            });
            const j = await requestJson('GET', `${server.base}/v1/snapshots/search?${p}`, { headers });
            return j.data.map((r) => [brain.refOf.get(r.id), r.explain.text]);
          };
          return { off: await get(false, 100), on: await get(true, 10) };
        });
        brains[label] = { brainId: brain.brainId, idRef: Object.fromEntries(brain.refOf), results };
      }
      dump.sets[name] = {
        queries: set.queries.map((q) => ({ qid: q.qid, q: q.q, relevant: [...q.relevant], kind: q.kind })),
        texts: Object.fromEntries(set.snapshots.map((s) => [s.ref, `${s.name} ${s.core}`])),
        names: Object.fromEntries(set.snapshots.map((s) => [s.ref, s.name])),
        brains,
      };
    }
    const sql = 'SELECT brain_id, source_id, target_id, edge_type, strength FROM edges';
    if (backend === 'sqlite') {
      const Database = require('better-sqlite3');
      const d = new Database(db.databaseUrl, { readonly: true });
      dump.edges = d.prepare(sql).all();
      d.close();
    } else {
      const pg = require('pg');
      const c = new pg.Client(db.databaseUrl);
      await c.connect();
      dump.edges = (await c.query(sql)).rows;
      await c.end();
    }
    writeFileSync(out, JSON.stringify(dump));
  } finally {
    await server.stop();
    await db.cleanup();
  }
});
