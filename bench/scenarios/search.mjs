// Search speed: GET /v1/snapshots/search with two-word queries on one brain of 100,000
// snapshots and 300,000 edges (and 1,000,000 / 3,000,000 with --large), graph on and off,
// against a minimal Fastify + better-sqlite3 server answering the same queries with a plain
// FTS5 bm25 top 10 over the same rows (the ceiling for text search here). Latency at one
// connection (sequential requests: p50/p95/p99), throughput at 10 connections, and the latency
// of GET /v1/snapshots/:id/suggestions. Interleaved rounds, each server started afresh.
import { join } from 'node:path';
import { buildFtsIndex, ftsCounter } from '../lib/fts-baseline.mjs';
import { requestJson } from '../lib/http.mjs';
import { median, summarize } from '../lib/load.mjs';
import { range, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runInterleaved } from '../lib/rounds.mjs';
import { seedSqlite } from '../lib/seed.mjs';
import { prepareDatabase, rssMiB, startBaseline, startSnapgraph } from '../lib/server.mjs';
import { random, snapshotText, vocabulary } from '../lib/zipf-text.mjs';

export const id = 'search';

const SIZES = {
  quick: { label: '5k', snapshots: 5_000, edges: 15_000 },
  base: { label: '100k', snapshots: 100_000, edges: 300_000 },
  large: { label: '1M', snapshots: 1_000_000, edges: 3_000_000 },
};
/** How Snapgraph combines a query's words, so that the baseline does the same work. */
const MATCH_MODE = 'or';
const QUERY_COUNT = 2_000;
/** Matching rows per 100,000 snapshots that a benchmark query must have. */
const HITS_PER_100K = [100, 5_000];
const SUGGESTION_TARGETS = 500;
const P95_TARGET_MS = 15;
const LARGE_P95_FACTOR = 3;
const BASELINE_SHARE = 0.5;

/** Frequency ranks the query words come from: common words when every word must match. */
const QUERY_RANKS = { and: [10, 400], or: [100, 3_000] };

/**
 * Two-word queries from the vocabulary (ranks log-uniform in QUERY_RANKS) that match a
 * plausible number of rows (HITS_PER_100K, scaled to the brain), found by counting in the
 * baseline's index.
 */
function chooseQueries(words, ftsPath, snapshots) {
  const [low, high] = HITS_PER_100K.map((h) => Math.max(1, Math.round((h * snapshots) / 100_000)));
  const next = random(42);
  const [first, last] = QUERY_RANKS[MATCH_MODE].map(Math.log);
  const word = () => words[Math.floor(Math.exp(first + next() * (last - first)))];
  const counter = ftsCounter(ftsPath, MATCH_MODE);
  const queries = [];
  const hits = [];
  try {
    for (let tries = 0; tries < QUERY_COUNT * 20 && queries.length < QUERY_COUNT; tries++) {
      const a = word();
      const b = word();
      if (a === b) continue;
      const q = `${a} ${b}`;
      const n = counter.count(q);
      if (n >= low && n <= high) {
        queries.push(q);
        hits.push(n);
      }
    }
  } finally {
    counter.close();
  }
  if (queries.length < QUERY_COUNT / 2) throw new Error(`only ${queries.length} queries match ${low}–${high} rows`);
  hits.sort((x, y) => x - y);
  const at = (p) => hits[Math.floor(p * (hits.length - 1))];
  return { queries, hits: { p10: at(0.1), median: at(0.5), p90: at(0.9), low, high } };
}

async function prepareSize(size, text) {
  const db = prepareDatabase();
  const started = Date.now();
  const seeded = seedSqlite(db.databaseUrl, {
    accountId: db.account_id,
    brainId: db.brain_id,
    snapshots: size.snapshots,
    edges: size.edges,
    text,
    label: `search: seeding ${size.label}`,
  });
  const seedSeconds = (Date.now() - started) / 1000;
  const ftsPath = join(db.dir, 'baseline-fts.db');
  const ftsStarted = Date.now();
  buildFtsIndex(db.databaseUrl, ftsPath);
  const ftsSeconds = (Date.now() - ftsStarted) / 1000;
  const step = Math.max(1, Math.floor(size.snapshots / SUGGESTION_TARGETS));
  const suggestionIds = seeded.snapshotIds.filter((_, i) => i % step === 0).slice(0, SUGGESTION_TARGETS);
  return { size, db, ftsPath, seedSeconds, ftsSeconds, suggestionIds, queries: null, indexBuilds: [] };
}

/** The first query must answer with results on both servers: the benchmark measures real work. */
async function checkAnswers(base, headers, path) {
  const body = await requestJson('GET', `${base}${path}`, { headers });
  if (!Array.isArray(body.data) || body.data.length === 0) throw new Error(`GET ${path}: no results`);
  return body;
}

/**
 * Starts Snapgraph once on the brain: search must answer with results, and suggestions are
 * measured only when the build has the route (404 "no route" otherwise). Returns whether it has.
 */
async function probe(brain) {
  const auth = { authorization: `Bearer ${brain.db.key}` };
  const server = await startSnapgraph({ databaseUrl: brain.db.databaseUrl });
  try {
    await checkAnswers(server.base, auth, searchPath(brain, brain.queries[0], true));
    const res = await fetch(`${server.base}/v1/snapshots/${brain.suggestionIds[0]}/suggestions`, { headers: auth });
    const text = await res.text();
    if (res.status === 404 && text.includes('no route')) return false;
    if (res.status !== 200) throw new Error(`suggestions: ${res.status} ${text.slice(0, 300)}`);
    return true;
  } finally {
    await server.stop();
  }
}

/**
 * Starts Snapgraph on the brain and waits until its in-memory text index is built (the first
 * search starts the build, in a worker; FTS5 answers until then), so that what is measured is
 * search as it runs once started. Keeps how long the build took.
 */
async function startWarm(brain) {
  const server = await startSnapgraph({ databaseUrl: brain.db.databaseUrl });
  const auth = { authorization: `Bearer ${brain.db.key}` };
  await checkAnswers(server.base, auth, searchPath(brain, brain.queries[0], true));
  const line = await server.waitForLine(/search text index built/);
  brain.indexBuilds.push({ ...JSON.parse(line), rssMiB: rssMiB(server.pid) });
  return server;
}

const searchPath = (brain, q, graph) =>
  `/v1/snapshots/search?q=${encodeURIComponent(q)}&brain_id=${brain.db.brain_id}&limit=10&graph=${graph}`;

function variantsFor(brain, withSuggestions) {
  const { size, db } = brain;
  const auth = { authorization: `Bearer ${db.key}` };
  const searchUrls = (graph) => (s) => brain.queries.map((q) => `${s.base}${searchPath(brain, q, graph)}`);
  const snapgraph = {
    name: `Snapgraph ${size.label}`,
    start: () => startWarm(brain),
    ops: [
      { op: 'graph=true, 1 connection', urls: searchUrls(true), sequential: true, headers: auth },
      { op: 'graph=false, 1 connection', urls: searchUrls(false), sequential: true, headers: auth },
      ...(withSuggestions
        ? [
            {
              op: 'suggestions, 1 connection',
              urls: (s) => brain.suggestionIds.map((sid) => `${s.base}/v1/snapshots/${sid}/suggestions`),
              sequential: true,
              headers: auth,
            },
          ]
        : []),
      { op: 'graph=true, 10 connections', urls: searchUrls(true), connections: 10, headers: auth },
      { op: 'graph=false, 10 connections', urls: searchUrls(false), connections: 10, headers: auth },
    ],
  };
  const baselineUrls = (s) => brain.queries.map((q) => `${s.base}/search?q=${encodeURIComponent(q)}`);
  const baseline = {
    name: `baseline ${size.label}`,
    start: async (round) => {
      const server = await startBaseline('fastify-sqlite-fts.mjs', {
        name: 'FTS5 baseline',
        env: { DATABASE_PATH: db.databaseUrl, FTS_PATH: brain.ftsPath, MATCH_MODE },
      });
      if (round === 1) await checkAnswers(server.base, {}, `/search?q=${encodeURIComponent(brain.queries[0])}`);
      return server;
    },
    ops: [
      { op: '1 connection', urls: baselineUrls, sequential: true },
      { op: '10 connections', urls: baselineUrls, connections: 10 },
    ],
  };
  return [snapgraph, baseline];
}

const ms = (samples, field) => range(summarize(samples, field), 2);
/** Req/s with a decimal when below 10, ratios with three when below 0.1 (a very slow search). */
const rps = (samples) => {
  const r = summarize(samples, 'rps');
  return range(r, r.median < 10 ? 1 : 0);
};
const times = (r) => ratio(r, r.median < 0.1 ? 3 : 2);

export async function run(ctx) {
  const sizes = ctx.quick ? [SIZES.quick] : ctx.large ? [SIZES.base, SIZES.large] : [SIZES.base];
  const words = vocabulary(4_000);
  const text = snapshotText({ words });
  const brains = [];
  for (const size of sizes) brains.push(await prepareSize(size, text));
  // The queries are chosen on the smaller brain and used unchanged on the larger one.
  const chosen = chooseQueries(words, brains[0].ftsPath, brains[0].size.snapshots);
  for (const brain of brains) brain.queries = chosen.queries;

  const withSuggestions = await probe(brains[0]);
  const samples = await runInterleaved({
    scenario: id,
    ...ctx,
    variants: brains.flatMap((brain) => variantsFor(brain, withSuggestions)),
    // A search slower than the load generator waits (10 s) is reported as such, not a crash.
    allowNoResponse: true,
  });
  for (const brain of brains) await brain.db.cleanup();

  const s = (variant, op) => samples[`${variant}|${op}`];
  const sections = [];
  const targets = [];
  const p95 = {};
  for (const { size, seedSeconds, ftsSeconds, indexBuilds } of brains) {
    const sg = `Snapgraph ${size.label}`;
    const bl = `baseline ${size.label}`;
    const onVsBaseline = pairedRatio(s(sg, 'graph=true, 10 connections'), s(bl, '10 connections'));
    const offVsBaseline = pairedRatio(s(sg, 'graph=false, 10 connections'), s(bl, '10 connections'));
    const onVsOff = pairedRatio(s(sg, 'graph=true, 10 connections'), s(sg, 'graph=false, 10 connections'));
    p95[size.label] = summarize(s(sg, 'graph=true, 1 connection'), 'p95');
    const latencyRow = (label, samples1) => [
      label,
      ms(samples1, 'p50'),
      ms(samples1, 'p95'),
      ms(samples1, 'p99'),
      range(summarize(samples1, 'cpuPerRequestUs')),
    ];
    const latency = table(
      ['request (1 connection, sequential)', 'p50 ms', 'p95 ms', 'p99 ms', 'server CPU µs/req'],
      [
        latencyRow('Snapgraph search, graph=true', s(sg, 'graph=true, 1 connection')),
        latencyRow('Snapgraph search, graph=false', s(sg, 'graph=false, 1 connection')),
        latencyRow('baseline: Fastify + FTS5 bm25 top 10', s(bl, '1 connection')),
        ...(withSuggestions
          ? [latencyRow('Snapgraph GET /v1/snapshots/:id/suggestions', s(sg, 'suggestions, 1 connection'))]
          : []),
      ],
    );
    const throughputRow = (label, samples10, vs) => [
      label,
      rps(samples10),
      vs,
      ms(samples10, 'p50'),
      ms(samples10, 'p99'),
      range(summarize(samples10, 'cpuPerRequestUs')),
    ];
    const throughput = table(
      ['search at 10 connections', 'req/s median (min–max)', 'vs baseline', 'p50 ms', 'p99 ms', 'server CPU µs/req'],
      [
        throughputRow('Snapgraph, graph=true', s(sg, 'graph=true, 10 connections'), times(onVsBaseline)),
        throughputRow('Snapgraph, graph=false', s(sg, 'graph=false, 10 connections'), times(offVsBaseline)),
        throughputRow('baseline: Fastify + FTS5 bm25 top 10', s(bl, '10 connections'), '1.00×'),
      ],
    );
    const cpu = (v, op) => median(s(v, op).map((x) => x.cpuPerRequestUs));
    const graphCost = cpu(sg, 'graph=true, 10 connections') - cpu(sg, 'graph=false, 10 connections');
    const textCost = cpu(sg, 'graph=false, 10 connections') - cpu(bl, '10 connections');
    sections.push(
      [
        `## Search: ${size.snapshots.toLocaleString('en')} snapshots, ${size.edges.toLocaleString('en')} edges`,
        `One brain, seeded straight into the database in ${seedSeconds.toFixed(0)} s (text from a ` +
          `${words.length.toLocaleString('en')}-word vocabulary with a Zipf distribution; the baseline's FTS5 index ` +
          `built in ${ftsSeconds.toFixed(0)} s). ${chosen.queries.length.toLocaleString('en')} two-word queries, ` +
          `each matching (any word, as Snapgraph reads a query) ${chosen.hits.low}–${chosen.hits.high} rows of the ` +
          `${brains[0].size.label} brain (median ${chosen.hits.median}, 10th–90th percentile ` +
          `${chosen.hits.p10}–${chosen.hits.p90}), taken in turn. Snapgraph as shipped with an enterprise key; ` +
          `\`limit=10\`. Latency at one connection is measured by a Node client in the bench process that sends ` +
          `one request at a time (every latency kept); throughput by ${ctx.quick ? 'a 1 s' : `${ctx.seconds} s`} ` +
          `of load at 10 connections. Each Snapgraph server is measured once its in-memory text index is ` +
          `built (${indexBuilds.map((b) => `${b.seconds.toFixed(1)} s`).join(', ')}, ` +
          `${indexBuilds[0]?.inWorker ? 'in a worker' : 'in the request thread'}, ` +
          `${indexBuilds[0]?.documents.toLocaleString('en')} snapshots; server RSS then ` +
          `${indexBuilds.map((b) => `${b.rssMiB.toFixed(0)}`).join(', ')} MiB).`,
        latency,
        throughput,
        `What the graph costs on top of text search: graph=true ÷ graph=false throughput ${times(onVsOff)}, ` +
          `${graphCost.toFixed(0)} µs more server CPU per request; Snapgraph's text search without the graph ` +
          `(auth, rate limit, count of all matches, full rows, score) costs ${textCost.toFixed(0)} µs more than ` +
          `the baseline's top 10.`,
      ].join('\n\n'),
    );
    if (size === SIZES.base) {
      targets.push(
        target(
          'search',
          `search p95 at 1 connection, graph=true, ${size.label}`,
          `${range(p95[size.label], 2)} ms`,
          `< ${P95_TARGET_MS} ms`,
          p95[size.label].median < P95_TARGET_MS,
        ),
        target(
          'search',
          `search req/s at 10 connections, graph=true vs FTS5 baseline, ${size.label}`,
          times(onVsBaseline),
          `≥ ${BASELINE_SHARE}×`,
          onVsBaseline.median >= BASELINE_SHARE,
        ),
      );
    }
  }
  if (!ctx.quick) {
    const factor = p95['1M'] ? p95['1M'].median / p95['100k'].median : NaN;
    targets.push(
      target(
        'search',
        'search p95 at 1 connection, graph=true, 1M ÷ 100k',
        p95['1M'] ? `${factor.toFixed(2)}× (${range(p95['1M'], 2)} ms)` : '—',
        `≤ ${LARGE_P95_FACTOR}×`,
        p95['1M'] ? factor <= LARGE_P95_FACTOR : null,
        p95['1M'] ? '' : 'run with --large',
      ),
    );
  }
  if (ctx.quick) for (const t of targets) t.met = undefined;
  return { sections, targets };
}
