// Memory recall on conversations (issue 35): the LoCoMo development split in
// ../shared/memory-eval (see its README), loaded through the HTTP API — one brain per
// conversation, every turn a memory with its speaker, its session as `session_id` and the
// session's date (plus the turn's place, in seconds) as `occurred_at` — and every question sent
// to POST /v1/memories/search with limit 10. Prints nDCG@10 and recall@5 per question category
// and overall (and in two halves by a hash of the question id), next to a plain Okapi BM25 over "speaker text" computed here (bench/lib/bm25.mjs,
// k1 0.9, b 0.4, no stemming: the README's reference, 0.462 / 0.524).
//
//   node bench/memory-quality.mjs [--data DIR] [--backend sqlite|postgres|both] [--without-sessions] [--unordered]
//     [--fresh | --reload] [--dump FILE] [--depth N]
//
// On SQLite the load is kept and reused as bench/longmemeval-quality.mjs does (--fresh, --reload,
// --dump and --depth as there; --unordered always loads afresh).
//
// --without-sessions loads speaker and content only (the README's protocol; a build before
// Design §12 takes nothing else). Each conversation's turns are written in order (conversations
// side by side); --unordered writes any 8 turns at once.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { bm25Index } from './lib/bm25.mjs';
import { runMain } from './lib/cleanup.mjs';
import { inParallel } from './lib/eval-load.mjs';
import { requestJson } from './lib/http.mjs';
import { ndcgAt, recallAt } from './lib/ir-metrics.mjs';
import { createBenchDatabase } from './lib/postgres.mjs';
import { prepareDatabase, REPO, startSnapgraph } from './lib/server.mjs';
import { dumpAnswers } from './lib/answers-dump.mjs';
import { keptDatabase, keptName } from './lib/kept-database.mjs';

const CATEGORIES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function args(argv) {
  // ../shared beside the checkout (or beside the worktrees' folder, for a git worktree).
  const data = ['../shared', '../../shared'].map((up) => resolve(REPO, up, 'memory-eval/locomo-dev'));
  const out = { data: data.find((dir) => existsSync(dir)) ?? data[0], backend: 'sqlite', depth: 10 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--data') out.data = resolve(argv[++i]);
    else if (argv[i] === '--backend') out.backend = argv[++i];
    else if (argv[i] === '--without-sessions') out.withoutSessions = true;
    else if (argv[i] === '--unordered') out.unordered = true;
    else if (argv[i] === '--fresh') out.fresh = true;
    else if (argv[i] === '--reload') out.reload = true;
    else if (argv[i] === '--dump') out.dump = resolve(argv[++i]);
    else if (argv[i] === '--depth') out.depth = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return out;
}

const readJsonl = (path) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

/** "1:56 pm on 8 May, 2023" plus the turn's number in seconds, as ISO 8601 UTC. */
function occurredAt(date, turn) {
  const m = /(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})/i.exec(date);
  if (!m) throw new Error(`unreadable date "${date}"`);
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  const month = MONTHS.indexOf(m[5].toLowerCase());
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]), turn)).toISOString();
}

/** The half a question falls in (as bench/longmemeval-quality.mjs): the parity of its id's SHA-256's first byte. */
const halfOf = (qid) => `half ${(createHash('sha256').update(String(qid)).digest()[0] % 2) + 1}`;

function scoreTable(name, questions, rankedOf) {
  const rows = new Map();
  const add = (key, ndcg, recall) => {
    const row = rows.get(key) ?? { n: 0, ndcg: 0, recall: 0 };
    row.n++;
    row.ndcg += ndcg;
    row.recall += recall;
    rows.set(key, row);
  };
  for (const q of questions) {
    const ranked = rankedOf(q);
    const ndcg = ndcgAt(ranked, q.relevant, 10);
    const recall = recallAt(ranked, q.relevant, 5);
    add(q.category, ndcg, recall);
    add('overall', ndcg, recall);
    add(halfOf(q.qid), ndcg, recall);
  }
  return { name, rows };
}

/** Writes every turn through the HTTP API; returns the brains and each memory's ref by id. */
async function load(server, headers, turns, { withoutSessions, unordered }) {
  const brains = {};
  const idToRef = {};
  for (const conv of new Set(turns.map((t) => t.conv))) {
    const brain = await requestJson('POST', `${server.base}/v1/brains`, {
      body: { name: `locomo ${conv}` },
      headers,
    });
    brains[conv] = brain.data.id;
  }
  // Each conversation's turns in order, as an agent remembering it writes them (without
  // sessions, their order is the conversation's), the conversations side by side; --unordered
  // writes any 8 turns at once instead, so a conversation's order is only roughly kept.
  const byConversation = [...new Set(turns.map((t) => t.conv))].map((conv) => turns.filter((t) => t.conv === conv));
  const writeAll = unordered
    ? (write) => inParallel(turns, 8, write)
    : (write) => inParallel(byConversation, byConversation.length, (conv) => inParallel(conv, 1, write));
  await writeAll(async (t) => {
    const turn = Number(t.ref.split(':').at(-1));
    const made = await requestJson('POST', `${server.base}/v1/memories`, {
      headers,
      body: {
        brain_id: brains[t.conv],
        content: t.text,
        speaker: t.speaker,
        ...(withoutSessions ? {} : { session_id: `D${t.session}`, occurred_at: occurredAt(t.date, turn) }),
      },
    });
    idToRef[made.data.id] = t.ref;
  });
  return { brains, idToRef };
}

async function runBackend(backend, turns, questions, options) {
  const { withoutSessions, unordered } = options;
  const database = backend === 'postgres' ? await createBenchDatabase() : undefined;
  // On SQLite the load is kept (bench/lib/kept-database.mjs) unless --fresh: a second run only asks.
  const kept =
    backend === 'sqlite' && !options.fresh && !unordered
      ? keptDatabase(keptName('locomo', options.data, { withoutSessions: Boolean(withoutSessions) }), options)
      : undefined;
  const db = kept?.db ?? prepareDatabase({ databaseUrl: database?.url });
  let server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const headers = { authorization: `Bearer ${db.key}` };
  try {
    const started = Date.now();
    let loadedData = kept?.manifest;
    if (!loadedData) {
      loadedData = await load(server, headers, turns, options);
      if (kept) {
        // Kept once the server that wrote it has closed the file, then served again.
        await server.stop();
        kept.keep(loadedData);
        server = await startSnapgraph({ databaseUrl: db.databaseUrl });
      }
    }
    const { brains, idToRef } = loadedData;
    const loaded = (Date.now() - started) / 1000;
    const answers = new Map();
    const timings = [];
    await inParallel(questions, 1, async (q) => {
      const t0 = performance.now();
      const found = await requestJson('POST', `${server.base}/v1/memories/search`, {
        headers,
        body: { query: q.q, brain_id: brains[q.conv], limit: options.depth },
      });
      timings.push(performance.now() - t0);
      answers.set(
        q.qid,
        found.data.map((m) => idToRef[m.id]),
      );
    });
    timings.sort((a, b) => a - b);
    const p95 = timings[Math.floor(timings.length * 0.95)];
    console.error(
      `${backend}: ${kept && !kept.fresh ? 'kept load of' : 'loaded'} ${turns.length} turns in ${loaded.toFixed(1)} s; ` +
        `search p95 ${p95.toFixed(1)} ms`,
    );
    if (options.dump) dumpAnswers(options.dump, questions, answers);
    const how = (withoutSessions ? ', speaker and content only' : '') + (unordered ? ', unordered writes' : '');
    return scoreTable(`Snapgraph (${backend}${how})`, questions, (q) => (answers.get(q.qid) ?? []).slice(0, 10));
  } finally {
    await server.stop();
    db.cleanup();
    await database?.drop();
  }
}

function print(tables) {
  const keys = ['overall', 1, 2, 3, 4, 'half 1', 'half 2'];
  const reference = tables[0];
  const head = ['', ...keys.map((k) => (typeof k === 'string' ? `${k} (n)` : `${CATEGORIES[k]} (n)`))];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const table of tables) {
    const cells = keys.map((k) => {
      const row = table.rows.get(k);
      const ndcg = row.ndcg / row.n;
      const base = reference.rows.get(k);
      const ratio = table === reference ? '' : ` (${(ndcg / (base.ndcg / base.n)).toFixed(2)}×)`;
      return `${ndcg.toFixed(3)}${ratio} / ${(row.recall / row.n).toFixed(3)} (${row.n})`;
    });
    lines.push(`| ${table.name} | ${cells.join(' | ')} |`);
  }
  console.log('nDCG@10 (ratio to BM25) / recall@5 (questions)\n');
  console.log(lines.join('\n'));
}

await runMain(async () => {
  const options = args(process.argv.slice(2));
  const turns = readJsonl(join(options.data, 'turns.jsonl'));
  const questions = readJsonl(join(options.data, 'queries.jsonl')).map((q) => ({
    ...q,
    relevant: new Set(Object.keys(q.relevant)),
  }));
  const indexes = new Map();
  for (const conv of new Set(turns.map((t) => t.conv))) {
    const docs = turns.filter((t) => t.conv === conv).map((t) => ({ id: t.ref, text: `${t.speaker} ${t.text}` }));
    indexes.set(conv, bm25Index(docs));
  }
  const tables = [scoreTable('BM25 "speaker text" (reference)', questions, (q) => indexes.get(q.conv).search(q.q, 10))];
  const backends = options.backend === 'both' ? ['sqlite', 'postgres'] : [options.backend];
  for (const backend of backends) tables.push(await runBackend(backend, turns, questions, options));
  print(tables);
});
