/* global performance */
// Vectors at scale (issue 39, design §20), with synthetic clustered unit vectors (no provider):
//
//   npm run build
//   nice -n 10 node bench/vectors.mjs --part budget [--brains 1000 --per-brain 2000 --dim 384 --cache-mb 256]
//   nice -n 10 node bench/vectors.mjs --part index --size 1000000 --dim 384 [--queries 100]
//   nice -n 10 node bench/vectors.mjs --part index --size 100000 --dim 1536
//   nice -n 10 node bench/vectors.mjs --part http [--size 30000 --dim 384]
//
// `budget` and `index` measure the module itself (packages/server/dist/domain/...) in this
// process; `http` measures GET /v1/snapshots/search of `snapgraph serve` on SQLite, exact
// (VECTOR_INDEX=exact) against auto (HNSW above VECTOR_EXACT_MAX), with a loopback embeddings
// server of the bench's own. Figures go to stdout as one JSON object a part.
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { clusteredVectors, exactTop } from './lib/clustered-vectors.mjs';
import { SemanticIndex } from '../packages/server/dist/domain/search/semantic.js';
import { HeldVectors } from '../packages/server/dist/domain/vectors/held.js';
import { dotRow } from '../packages/server/dist/domain/vectors/matrix.js';
import { HnswIndex } from '../packages/server/dist/domain/vectors/hnsw.js';
import { prepareDatabase, startSnapgraph } from './lib/server.mjs';
import { seedSqlite } from './lib/seed.mjs';
import { getJson } from './lib/http.mjs';

const { values: args } = parseArgs({
  options: {
    part: { type: 'string', default: 'budget' },
    brains: { type: 'string', default: '1000' },
    'per-brain': { type: 'string', default: '2000' },
    'cache-mb': { type: 'string', default: '256' },
    size: { type: 'string', default: '100000' },
    dim: { type: 'string', default: '384' },
    queries: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '2' },
    // Also measure recall and latency when the index is asked for this many candidates.
    candidates: { type: 'string', default: '' },
  },
});
const num = (name) => Number(args[name]);
const mib = (bytes) => Math.round(bytes / 2 ** 20);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const ms = (x) => Math.round(x * 100) / 100;
const summary = (latencies) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50_ms: ms(percentile(sorted, 0.5)), p95_ms: ms(percentile(sorted, 0.95)), max_ms: ms(sorted.at(-1)) };
};

/** The vectors of a brain as the store would return them: rows of little-endian float32 bytes. */
function storedRows(matrix, dimension, prefix) {
  const bytes = Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength);
  const rows = [];
  for (let row = 0; row < matrix.length / dimension; row++) {
    rows.push({ id: `${prefix}_${row}`, vector: bytes.subarray(row * dimension * 4, (row + 1) * dimension * 4) });
  }
  return rows;
}

/** Many brains searched in turn under one budget: RSS and whether every search answered. */
async function budget() {
  const [brains, perBrain, dimension, cacheMb, rounds] = [
    num('brains'),
    num('per-brain'),
    num('dim'),
    num('cache-mb'),
    num('rounds'),
  ];
  // A store that returns each brain's rows as a database would (fresh rows, the brain's own ids),
  // their numbers taken from a few made in advance: making 2,000 × 384 numbers per read would
  // cost more than the search it measures.
  const pool = Array.from(
    { length: 16 },
    (_, seed) => clusteredVectors({ count: perBrain, dimension, clusters: 50, seed }).matrix,
  );
  const store = {
    vectorStamp: async () => `${perBrain}:1`,
    vectorsOf: async (_kind, brainId) => {
      const matrix = pool[Number(brainId.slice(1)) % pool.length];
      return storedRows(matrix, dimension, brainId).map((row) => ({ id: row.id, vector: Buffer.from(row.vector) }));
    },
  };
  const queries = clusteredVectors({ count: 0, dimension, clusters: 50, seed: 99 });
  const provider = {
    model: 'bench',
    dimension,
    embed: async (texts) => ({ vectors: texts.map(() => queries.query()) }),
  };
  const index = new SemanticIndex(provider, store, () => Date.now(), { index: 'auto', cacheMb, exactMax: 20_000 });
  const latencies = [];
  let answered = 0;
  let peakRss = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (let b = 0; b < brains; b++) {
      const t = performance.now();
      const view = await index.view(`b${b}`, `query ${round} ${b}`);
      const found = view.nearest(10, -1);
      latencies.push(performance.now() - t);
      if (found.length === 10) answered++;
      if (b % 10 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
  }
  const status = index.status();
  return {
    part: 'budget',
    brains,
    vectors_per_brain: perBrain,
    dimension,
    cache_mb: cacheMb,
    searches: brains * rounds,
    answered,
    seconds: Math.round((performance.now() - started) / 1000),
    ...summary(latencies),
    peak_rss_mib: mib(peakRss),
    max_rss_mib: mib(process.resourceUsage().maxRSS * 1024),
    held_mib: mib(status.bytes),
    brains_held: status.brains,
  };
}

/** One large brain: the HNSW index built and searched through the module, recall against exact search. */
async function largeIndex() {
  const [size, dimension, queries] = [num('size'), num('dim'), num('queries')];
  let t = performance.now();
  const { matrix, query } = clusteredVectors({ count: size, dimension, clusters: Math.max(100, size / 1000), seed: 7 });
  const generateMs = performance.now() - t;
  const ids = Array.from({ length: size }, (_, i) => `v${i}`);
  const m = { ids, rowOf: new Map(ids.map((id, i) => [id, i])), matrix, dimension };
  const rssBefore = process.memoryUsage().rss;
  t = performance.now();
  const index = await HnswIndex.build(m);
  const buildMs = performance.now() - t;
  const held = new HeldVectors('bench', 0, m);
  held.attach(index, 'bench');
  // The truths first, then each way of searching over every query in turn: an exact pass reads
  // 1.5 GB between two searches, and timing the index right after it measured cold caches (a
  // server answering searches back to back keeps the graph's upper layers warm).
  const vectors = Array.from({ length: queries }, () => query());
  const exactLatencies = [];
  const truths = vectors.map((vector) => {
    t = performance.now();
    const truth = new Set(exactTop(matrix, dimension, vector, 10).map((row) => ids[row]));
    exactLatencies.push(performance.now() - t);
    return truth;
  });
  const timed = (search) => {
    const latencies = [];
    let hits = 0;
    vectors.forEach((vector, q) => {
      t = performance.now();
      const found = search(vector);
      latencies.push(performance.now() - t);
      hits += found.filter((id) => truths[q].has(id)).length;
    });
    return { ...summary(latencies), recall_at_10: hits / (queries * 10) };
  };
  const viaHeld = (vector) =>
    held
      .view(vector)
      .nearest(10, -1)
      .map((f) => f.id);
  timed(viaHeld); // warm-up: the first pass compiles and pages in what every later one reuses
  const shipped = timed(viaHeld);
  // The same, asking the index for more candidates (its search list grows with them).
  const widths = args.candidates ? args.candidates.split(',').map(Number) : [];
  const wide = widths.map((width) =>
    timed((vector) =>
      index
        .search(vector, width)
        .map((id) => ({ id, s: dotRow(m, m.rowOf.get(id), vector) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10)
        .map((f) => f.id),
    ),
  );
  return {
    part: 'index',
    vectors: size,
    dimension,
    queries,
    generate_s: Math.round(generateMs / 1000),
    build_s: Math.round(buildMs / 100) / 10,
    index_mib: mib(index.bytes),
    matrix_mib: mib(matrix.byteLength),
    held_mib: mib(held.bytes()),
    rss_before_build_mib: mib(rssBefore),
    rss_after_mib: mib(process.memoryUsage().rss),
    max_rss_mib: mib(process.resourceUsage().maxRSS * 1024),
    hnsw: shipped,
    exact: summary(exactLatencies),
    recall_at_10: shipped.recall_at_10,
    ...Object.fromEntries(widths.map((width, w) => [`candidates_${width}`, wide[w]])),
    // The machine is shared: the load while the searches were timed says how far to trust them.
    load_average_1m: Math.round(loadavg()[0] * 10) / 10,
  };
}

/** A loopback OpenAI-style /v1/embeddings answering each text with a vector near one of the data's clusters. */
async function embeddingsServer(dimension, query) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const input = JSON.parse(body).input;
      const texts = Array.isArray(input) ? input : [input];
      const data = texts.map((_, index) => ({ object: 'embedding', index, embedding: Array.from(query()) }));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', data, model: 'bench-embed' }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

/** GET /v1/snapshots/search on one brain with vectors, exact against auto (HNSW). */
async function http() {
  const [size, dimension, queries] = [num('size'), num('dim'), num('queries')];
  const db = prepareDatabase();
  const { snapshotIds } = seedSqlite(db.databaseUrl, {
    accountId: db.account_id,
    brainId: db.brain_id,
    snapshots: size,
    label: 'snapshots',
  });
  const { matrix, query } = clusteredVectors({ count: size, dimension, clusters: Math.max(100, size / 1000), seed: 7 });
  const sqlite = new Database(db.databaseUrl);
  const insert = sqlite.prepare(
    `INSERT INTO snapshot_vectors (snapshot_id, brain_id, model, dimension, text_hash, vector, updated_at)
     VALUES (?, ?, 'bench-embed', ?, '', ?, '2026-01-01T00:00:00.000Z')`,
  );
  sqlite.transaction(() => {
    snapshotIds.forEach((id, row) => {
      insert.run(id, db.brain_id, dimension, Buffer.from(matrix.buffer, row * dimension * 4, dimension * 4));
    });
  })();
  sqlite.close();
  const provider = await embeddingsServer(dimension, query);
  const results = {};
  const headers = { authorization: `Bearer ${db.key}` };
  try {
    for (const mode of ['exact', 'auto']) {
      const server = await startSnapgraph({
        databaseUrl: db.databaseUrl,
        env: { EMBEDDINGS_BASE_URL: provider.url, EMBEDDINGS_MODEL: 'bench-embed', VECTOR_INDEX: mode },
        name: mode,
      });
      try {
        // Measured once the text index is built (FTS5 answers until then; the first search
        // starts its build), as the search bench does.
        await getJson(`${server.base}/v1/snapshots/search?q=compounding&limit=1`, headers);
        await server.waitForLine(/search text index built/);
        // The first search reads the vectors and, above the threshold, starts the index's build;
        // exact search answers until it is ready.
        const first = performance.now();
        const url = `${server.base}/v1/snapshots/search?q=compounding&explain=true&limit=10`;
        let warm = await getJson(url, headers);
        const firstMs = performance.now() - first;
        while (mode === 'auto' && warm.json.data[0]?.explain?.vector_index !== 'hnsw') {
          await new Promise((resolve) => setTimeout(resolve, 500));
          warm = await getJson(url, headers);
        }
        const readyMs = performance.now() - first;
        const latencies = [];
        for (let q = 0; q < queries; q++) {
          const t = performance.now();
          await getJson(`${server.base}/v1/snapshots/search?q=${encodeURIComponent(`meaning ${q}`)}&limit=10`, headers);
          latencies.push(performance.now() - t);
        }
        results[mode] = {
          vector_index: warm.json.data[0]?.explain?.vector_index,
          first_ms: Math.round(firstMs),
          index_ready_ms: Math.round(readyMs),
          ...summary(latencies),
        };
      } finally {
        await server.stop();
      }
    }
  } finally {
    provider.close();
    db.cleanup();
  }
  return { part: 'http', snapshots: size, dimension, queries, ...results };
}

const parts = { budget, index: largeIndex, http };
const run = parts[args.part];
if (!run) throw new Error(`--part is one of ${Object.keys(parts).join(', ')}`);
console.log(JSON.stringify(await run()));
