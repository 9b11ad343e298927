// Memory recall on a user's long history with an assistant (issue 47): the LongMemEval
// development split in ../shared/memory-eval (see its README; 60 questions, each with its own
// history of about 50 sessions and 500 turns). Each question's history is loaded as an agent's
// data: one brain per question, every turn a memory with its speaker, its session as `session_id`
// and the session's date plus the turn's place (in seconds) as `occurred_at`. It is written as
// an export file (NDJSON) and loaded with `snapgraph import` — the server's own import, which
// settles supersession by the rules as writes do (design §6.1) — because 29,850 turns through
// POST /v1/memories took ~17 min on a loaded machine. Every question goes to POST
// /v1/memories/search with limit 10. Prints nDCG@10 and recall@5 per question type next to the
// README's BM25 ("speaker text", k1 0.9, b 0.4, no stemming), "current first" on
// knowledge-update questions, and the same split into two halves by question id (the parity of
// a hash of the id), so that a change tuned on one half can be checked on the other.
//
//   node bench/longmemeval-quality.mjs [--data DIR] [--backend sqlite|postgres|both] [--questions N]
//     [--fresh | --reload] [--dump FILE] [--depth N]
//
// The loaded database is kept (bench/lib/kept-database.mjs: on SQLite a file under the system's
// temporary directory, on PostgreSQL a database named after the load): the first run loads
// (9–14 min on SQLite, 7–16 on PostgreSQL), later runs serve a copy of the kept file (SQLite)
// or the kept database and only ask the questions (about 30 s), so a ranking change is measured
// quickly; the server is started again after a load (a connection kept alive through the load
// may be closed under the first search). --reload
// loads again (after a change to how memories are written: supersession rules, migrations);
// --fresh loads into a throwaway database as before. --dump writes each question's ranking
// (refs, best first, --depth of them: default 10; scores always use the first 10) as JSON lines.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { bm25Index } from './lib/bm25.mjs';
import { runMain } from './lib/cleanup.mjs';
import { inParallel } from './lib/eval-load.mjs';
import { requestJson } from './lib/http.mjs';
import { ndcgAt, recallAt } from './lib/ir-metrics.mjs';
import { createBenchDatabase } from './lib/postgres.mjs';
import { prepareDatabase, REPO, snapgraphCli, startSnapgraph } from './lib/server.mjs';
import { dumpAnswers } from './lib/answers-dump.mjs';
import { keptDatabase, keptName, keptPostgresDatabase } from './lib/kept-database.mjs';

const { newId } = await import(join(REPO, 'packages/server/dist/ids.js'));
/** A memory's content is at most this long (design §12); longer assistant answers are cut there. */
const MAX_CONTENT = 10_000;

function args(argv) {
  const data = ['../shared', '../../shared'].map((up) => resolve(REPO, up, 'memory-eval/longmemeval-dev'));
  const out = {
    data: data.find((dir) => existsSync(dir)) ?? data[0],
    backend: 'sqlite',
    questions: Infinity,
    depth: 10,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--data') out.data = resolve(argv[++i]);
    else if (argv[i] === '--backend') out.backend = argv[++i];
    else if (argv[i] === '--questions') out.questions = Number(argv[++i]);
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

/** The half a question falls in: the parity of the first byte of its id's SHA-256. */
const halfOf = (qid) => `half ${(createHash('sha256').update(qid).digest()[0] % 2) + 1}`;

/** The session's date plus the turn's place in it, in seconds: unique within a history. */
const occurredAt = (t) => new Date(Date.parse(t.date) + Number(t.ref.split(':').at(-1)) * 1000).toISOString();
const placeKey = (sessionId, at) => `${sessionId}\u0000${new Date(at).toISOString()}`;

/** An export file of the brain (its header and brain record as exported) holding the history's turns. */
function exportFile(exported, turns) {
  const lines = exported.trim().split('\n');
  const end = JSON.parse(lines.pop());
  const now = new Date().toISOString();
  const brainId = JSON.parse(lines[0]).brain_id;
  for (const t of turns) {
    const memory = {
      id: newId('mem'),
      brain_id: brainId,
      content: t.text.slice(0, MAX_CONTENT) || '(empty)',
      memory_type: 'fact',
      speaker: t.speaker,
      tags: [],
      source_emotion: null,
      emotional_valence: null,
      emotional_intensity: null,
      occurred_at: occurredAt(t),
      session_id: t.session,
      promoted_to: null,
      created_at: now,
      updated_at: now,
    };
    lines.push(JSON.stringify({ kind: 'memory', data: memory }));
  }
  end.counts = { ...end.counts, memory: (end.counts.memory ?? 0) + turns.length };
  lines.push(JSON.stringify(end));
  return `${lines.join('\n')}\n`;
}

function scoreTable(name, questions, rankedOf) {
  const rows = new Map();
  const add = (key, ndcg, recall, current) => {
    const row = rows.get(key) ?? { n: 0, ndcg: 0, recall: 0, updates: 0, current: 0 };
    row.n++;
    row.ndcg += ndcg;
    row.recall += recall;
    if (current !== undefined) {
      row.updates++;
      row.current += current;
    }
    rows.set(key, row);
  };
  for (const q of questions) {
    const ranked = rankedOf(q);
    const ndcg = ndcgAt(ranked, q.relevant, 10);
    const recall = recallAt(ranked, q.relevant, 5);
    // Current first: the first relevant turn found is one of the latest session's.
    let current;
    if (q.latest) {
      const first = ranked.find((ref) => q.relevant.has(ref));
      current = first !== undefined && q.latest.includes(first) ? 1 : 0;
    }
    for (const key of [q.category, 'overall', halfOf(q.qid)]) add(key, ndcg, recall, current);
  }
  return { name, rows };
}

/** Loads each question's history into its own brain; returns the brains and each turn's ref by place. */
async function load(server, db, headers, turns, questions) {
  const brains = {};
  const refOf = {};
  const convs = [...new Set(questions.map((q) => q.conv))];
  // Every brain first: a kept-alive connection left idle while an import runs may be closed under
  // the next request.
  for (const conv of convs) {
    const brain = await requestJson('POST', `${server.base}/v1/brains`, { body: { name: `lme ${conv}` }, headers });
    brains[conv] = brain.data.id;
  }
  for (const conv of convs) {
    const history = turns.filter((t) => t.conv === conv);
    const exported = snapgraphCli(['export', '--brain', brains[conv]], db.databaseUrl);
    const file = join(db.dir, `${conv}.ndjson`);
    writeFileSync(file, exportFile(exported, history));
    snapgraphCli(['import', file, '--brain', brains[conv], '--json'], db.databaseUrl);
    for (const t of history) refOf[placeKey(t.session, occurredAt(t))] = t.ref;
  }
  return { brains, refOf };
}

async function runBackend(backend, turns, questions, options) {
  // The load is kept (bench/lib/kept-database.mjs) unless --fresh: a second run only asks.
  const name = keptName('longmemeval', options.data, { all: questions.length });
  const kept = options.fresh
    ? undefined
    : backend === 'sqlite'
      ? keptDatabase(name, options)
      : await keptPostgresDatabase(name, options);
  const database = backend === 'postgres' && !kept ? await createBenchDatabase() : undefined;
  const db = kept?.db ?? prepareDatabase({ databaseUrl: database?.url });
  let server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const headers = { authorization: `Bearer ${db.key}` };
  try {
    const started = performance.now();
    let loadedData = kept?.manifest;
    if (!loadedData) {
      loadedData = await load(server, db, headers, turns, questions);
      if (kept) {
        // Kept once the server that wrote it has closed the file, then served again.
        await server.stop();
        kept.keep(loadedData);
        server = await startSnapgraph({ databaseUrl: db.databaseUrl });
      }
    }
    const { brains, refOf } = loadedData;
    const loaded = (performance.now() - started) / 1000;
    const answers = new Map();
    // Each question is asked twice: the first search of a brain also builds its word index
    // (each brain here has one question), the second is timed as a brain in use answers.
    const timings = { first: [], again: [] };
    await inParallel(questions, 1, async (q) => {
      let found;
      for (const round of ['first', 'again']) {
        const t0 = performance.now();
        found = await requestJson('POST', `${server.base}/v1/memories/search`, {
          headers,
          body: { query: q.q, brain_id: brains[q.conv], limit: options.depth },
        });
        timings[round].push(performance.now() - t0);
      }
      answers.set(
        q.qid,
        found.data.map((m) => refOf[placeKey(m.session_id, m.occurred_at)]),
      );
    });
    const at = (list, q) => list.sort((x, y) => x - y)[Math.floor(list.length * q)].toFixed(1);
    const p95 = (list) => `${at(list, 0.95)} ms (p50 ${at(list, 0.5)})`;
    console.error(
      `${backend}: ${kept && !kept.fresh ? 'kept load of' : 'loaded'} ${Object.keys(refOf).length} turns in ` +
        `${loaded.toFixed(1)} s; search p95 ${p95(timings.first)} on a brain's first search, ` +
        `${p95(timings.again)} on the next`,
    );
    if (options.dump) dumpAnswers(options.dump, questions, answers);
    return scoreTable(`Snapgraph (${backend})`, questions, (q) => (answers.get(q.qid) ?? []).slice(0, 10));
  } finally {
    await server.stop();
    db.cleanup();
    await database?.drop();
  }
}

function print(tables) {
  const keys = [...tables[0].rows.keys()].sort((a, b) =>
    a === 'overall' ? -1 : b === 'overall' ? 1 : a.startsWith('half') - b.startsWith('half') || a.localeCompare(b),
  );
  const reference = tables[0];
  const lines = [
    `| row (questions) | ${tables.map((t) => t.name).join(' | ')} |`,
    `|---|${tables.map(() => '---').join('|')}|`,
  ];
  for (const key of keys) {
    const cells = tables.map((table) => {
      const row = table.rows.get(key);
      const base = reference.rows.get(key);
      const ndcg = row.ndcg / row.n;
      const ratio = table === reference ? '' : ` (${(ndcg / (base.ndcg / base.n)).toFixed(2)}×)`;
      const current = row.updates > 0 ? `; current first ${row.current}/${row.updates}` : '';
      return `${ndcg.toFixed(3)}${ratio} / ${(row.recall / row.n).toFixed(3)}${current}`;
    });
    lines.push(`| ${key} (${reference.rows.get(key).n}) | ${cells.join(' | ')} |`);
  }
  console.log('nDCG@10 (ratio to BM25) / recall@5\n');
  console.log(lines.join('\n'));
}

await runMain(async () => {
  const options = args(process.argv.slice(2));
  const turns = readJsonl(join(options.data, 'turns.jsonl'));
  const questions = readJsonl(join(options.data, 'queries.jsonl'))
    .slice(0, options.questions)
    .map((q) => ({ ...q, relevant: new Set(Object.keys(q.relevant)) }));
  const indexes = new Map();
  for (const conv of new Set(questions.map((q) => q.conv))) {
    const docs = turns.filter((t) => t.conv === conv).map((t) => ({ id: t.ref, text: `${t.speaker} ${t.text}` }));
    indexes.set(conv, bm25Index(docs));
  }
  const tables = [scoreTable('BM25 "speaker text" (reference)', questions, (q) => indexes.get(q.conv).search(q.q, 10))];
  const backends = options.backend === 'both' ? ['sqlite', 'postgres'] : [options.backend];
  for (const backend of backends) tables.push(await runBackend(backend, turns, questions, options));
  print(tables);
});
