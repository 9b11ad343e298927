// Memories (issue 21): POST /v1/memories against a minimal Fastify + better-sqlite3 server that
// inserts one memory per request in its own transaction (the same schema, indexes and full-text
// triggers), and POST /v1/memories/search latency at one connection on a brain of 100,000
// memories (5,000 with --quick), seeded straight into the database.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isoTime } from '../../packages/server/dist/clock.js';
import { newId } from '../../packages/server/dist/ids.js';
import { postJson } from '../lib/http.mjs';
import { summarize } from '../lib/load.mjs';
import { cellsWithRatio, MEASUREMENT_HEADERS, range, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runInterleaved } from '../lib/rounds.mjs';
import { createBrainSqlite } from '../lib/seed.mjs';
import { cpuMs, prepareDatabase, snapgraphCli, startBaseline, startSnapgraph, tempDir } from '../lib/server.mjs';
import { random, snapshotText, vocabulary } from '../lib/zipf-text.mjs';

export const id = 'memories';

const MEMORY_BODY = JSON.stringify({
  content: 'We decided to ship the importer behind a flag and turn it on for two teams first.',
  memory_type: 'decision',
  speaker: 'Ada',
  tags: ['launch', 'importer'],
  emotional_valence: 0.4,
});
const MEMORY_TYPES = ['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'];
const SIZES = { quick: 5_000, base: 100_000 };
const QUERY_COUNT = 500;
const P95_TARGET_MS = 15;

const withDatabaseRemoval = (server, remove) => ({
  ...server,
  stop: async () => {
    await server.stop();
    await remove();
  },
});

async function writes(ctx) {
  const variants = [
    {
      name: 'Snapgraph',
      start: async () => {
        const db = prepareDatabase();
        const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
        await postJson(`${server.base}/v1/memories`, MEMORY_BODY, { authorization: `Bearer ${db.key}` });
        return withDatabaseRemoval({ ...server, key: db.key }, db.cleanup);
      },
      ops: [
        {
          op: 'create',
          url: (s) => `${s.base}/v1/memories`,
          method: 'POST',
          body: MEMORY_BODY,
          headers: (s) => ({ authorization: `Bearer ${s.key}` }),
        },
      ],
    },
    {
      name: 'one transaction per request',
      start: async () => {
        const { dir, remove } = tempDir();
        const path = join(dir, 'writer.db');
        snapgraphCli(['migrate'], path);
        const { accountId, brainId } = createBrainSqlite(path);
        const server = await startBaseline('fastify-sqlite-memories.mjs', {
          name: 'memory writer',
          env: { DATABASE_PATH: path, BRAIN_ID: brainId, ACCOUNT_ID: accountId },
        });
        await postJson(`${server.base}/v1/memories`, MEMORY_BODY);
        return withDatabaseRemoval(server, remove);
      },
      ops: [{ op: 'create', url: (s) => `${s.base}/v1/memories`, method: 'POST', body: MEMORY_BODY }],
    },
  ];
  const samples = await runInterleaved({ scenario: id, ...ctx, variants });
  const snapgraph = samples['Snapgraph|create'];
  const baseline = samples['one transaction per request|create'];
  const vs = pairedRatio(snapgraph, baseline);
  const rows = [
    ['Snapgraph as shipped', ...cellsWithRatio(snapgraph, '—')],
    ['Fastify + better-sqlite3, one transaction per request', ...cellsWithRatio(baseline, ratio(vs))],
  ];
  return {
    section:
      `## Memories: POST /v1/memories\n\nA fresh database per server per round; SQLite in WAL with ` +
      `synchronous=FULL on both sides, the same table and full-text triggers.\n\n` +
      table(['server', MEASUREMENT_HEADERS[0], 'Snapgraph vs it', ...MEASUREMENT_HEADERS.slice(1)], rows),
    target: target(
      'memories',
      'POST /v1/memories vs one transaction per request (req/s)',
      ratio(vs),
      '≥ 3×',
      vs.median >= 3,
    ),
  };
}

/** N memories of Zipf text (the snapshot generator's core as content) straight into the database. */
export function seedMemories(path, { accountId, brainId, count }) {
  const text = snapshotText({ words: vocabulary(4_000) });
  const db = new Database(path);
  const insert = db.prepare(
    `INSERT INTO memories (id, account_id, brain_id, content, memory_type, speaker, tags, occurred_at, session_id,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const start = Date.now() - count - 60_000;
  const batch = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const { core, tags } = text(i);
      const at = isoTime(start + i);
      insert.run(
        newId('mem', start + i),
        accountId,
        brainId,
        core,
        MEMORY_TYPES[i % 7],
        i % 3 ? null : 'Ada',
        JSON.stringify(tags),
        at,
        // Conversations of 20 turns: ranking reads the turns around its best matches.
        `s${Math.floor(i / 20)}`,
        at,
        at,
      );
    }
  });
  try {
    for (let from = 0; from < count; from += 25_000) batch(from, Math.min(count, from + 25_000));
  } finally {
    db.close();
  }
}

/** Two-word queries from words of middling frequency (ranks 100–3,000), as snapshot search's bench. */
export function queries() {
  const words = vocabulary(4_000);
  const next = random(42);
  const [first, last] = [Math.log(100), Math.log(3_000)];
  const word = () => words[Math.floor(Math.exp(first + next() * (last - first)))];
  return Array.from({ length: QUERY_COUNT }, () => `${word()} ${word()}`);
}

/**
 * Sequential searches for `seconds` (or `requests` of them, whichever ends first), one at a time
 * on a kept-alive connection: every latency kept.
 */
export async function searchLatency(server, key, brainId, list, seconds, requests = Infinity) {
  const latencies = [];
  let hits = 0;
  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  const until = started + seconds * 1000;
  for (let i = 0; performance.now() < until && i < requests; i++) {
    const query = list[i % list.length];
    const started = performance.now();
    const res = await fetch(`${server.base}/v1/memories/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, brain_id: brainId, limit: 10 }),
    });
    const body = await res.json();
    latencies.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`search: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    hits += body.count;
  }
  const cpuPerRequestUs = ((cpuMs(server.pid) - cpuBefore) * 1000) / latencies.length;
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.floor(p * (latencies.length - 1))];
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    requests: latencies.length,
    seconds: (performance.now() - started) / 1000,
    meanHits: hits / latencies.length,
    cpuPerRequestUs,
  };
}

async function search(ctx) {
  const count = ctx.quick ? SIZES.quick : SIZES.base;
  const db = prepareDatabase();
  const started = Date.now();
  seedMemories(db.databaseUrl, { accountId: db.account_id, brainId: db.brain_id, count });
  const seedSeconds = (Date.now() - started) / 1000;
  const list = queries();
  const samples = [];
  try {
    for (let round = 1; round <= ctx.rounds; round++) {
      const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
      try {
        // A brain past 2,000 memories has its word index built by a worker after its first
        // search (store/sqlite/memory-word-index/): measured once it is, as a server runs.
        await searchLatency(server, db.key, db.brain_id, list.slice(0, 1), 0.05);
        await server.waitForLine(/memory word index built/, 120_000);
        if (ctx.warmupSeconds > 0) await searchLatency(server, db.key, db.brain_id, list, ctx.warmupSeconds);
        const sample = await searchLatency(server, db.key, db.brain_id, list, ctx.seconds);
        samples.push(sample);
        console.error(
          `[memories] round ${round}/${ctx.rounds} search: p50 ${sample.p50.toFixed(2)} ms, p95 ${sample.p95.toFixed(2)} ms`,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await db.cleanup();
  }
  const p95 = summarize(samples, 'p95');
  const ms = (field) => range(summarize(samples, field), 2);
  return {
    section:
      `## Memories: POST /v1/memories/search at ${count.toLocaleString('en')} memories\n\n` +
      `One brain, seeded straight into the database in ${seedSeconds.toFixed(0)} s (Zipf text from a 4,000-word ` +
      `vocabulary, ~40 words per memory). ${QUERY_COUNT} two-word queries taken in turn (mean ` +
      `${Math.round(summarize(samples, 'meanHits').median)} matches each), \`limit=10\`, one request at a time ` +
      `from the bench process; server CPU is the server process's user + system time per request.\n\n` +
      table(
        ['request (1 connection, sequential)', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'server CPU µs/req'],
        [
          [
            'Snapgraph memory search',
            ms('p50'),
            ms('p95'),
            ms('p99'),
            range(summarize(samples, 'requests')),
            range(summarize(samples, 'cpuPerRequestUs')),
          ],
        ],
      ),
    target: target(
      'memories',
      `memory search p95 at 1 connection, ${count.toLocaleString('en')} memories`,
      `${range(p95, 2)} ms`,
      `< ${P95_TARGET_MS} ms`,
      p95.median < P95_TARGET_MS,
    ),
  };
}

export async function run(ctx) {
  const w = await writes(ctx);
  const s = await search(ctx);
  const targets = [w.target, s.target];
  if (ctx.quick) for (const t of targets) t.met = undefined;
  return { sections: [w.section, s.section], targets };
}
