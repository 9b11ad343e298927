// Search quality on public multi-hop question sets (../shared/search-eval, see its README):
// each set is loaded through the HTTP API into a fresh brain with its given `elaborates` edges,
// and into a second brain with auto_link on and no given edges; every question runs with
// graph=false and graph=true, and the ranked ids are scored against the authors' labels
// (nDCG@10, recall@2/5/10, MRR@10), per set and per kind of question. A plain BM25 over
// name + core, computed here, is the reference the targets are set against.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { bm25Index } from '../lib/bm25.mjs';
import { dataDir, loadSet, sampleQueries, SETS, subset } from '../lib/eval-data.mjs';
import { loadBrain, searchIds, waitForBackgroundWork } from '../lib/eval-load.mjs';
import { meanScores, METRICS, scoreQuestion } from '../lib/ir-metrics.mjs';
import { createBenchDatabase, postgresAnswers } from '../lib/postgres.mjs';
import { table, target } from '../lib/report.mjs';
import { prepareDatabase, startSnapgraph } from '../lib/server.mjs';

export const id = 'search-quality';

/** What the shared README publishes for the reference BM25 on the full question sets. */
const PUBLISHED_BM25_NDCG = { musique: 0.557, hotpotqa: 0.772 };
/** graph=true ÷ graph=false nDCG@10 wanted with the set's given edges, and with only automatic ones. */
const GRAPH_GAIN = 1.1;
const AUTO_GRAPH_GAIN = 1.05;
const QUICK_QUESTIONS = 20;
/** The smoke run's corpus: automatic linking of a whole set takes minutes. */
const QUICK_SNAPSHOTS = 400;
const TITLES = { musique: 'MuSiQue', hotpotqa: 'HotpotQA' };

async function database(backend) {
  // Durability is not what this measures: on a RAM disk, loading takes half the time.
  if (backend === 'sqlite') return prepareDatabase({ parentDir: existsSync('/dev/shm') ? '/dev/shm' : undefined });
  if (backend !== 'postgres') throw new Error(`--backend must be sqlite or postgres, not "${backend}"`);
  if (!(await postgresAnswers())) throw new Error('PostgreSQL does not answer (SNAPGRAPH_BENCH_POSTGRES_URL)');
  return prepareDatabase({ databaseUrl: (await createBenchDatabase()).url });
}

/** Runs every question against one brain and scores it; also the median answer time. */
async function evaluate(server, headers, brain, queries, graph) {
  const scores = [];
  const times = [];
  for (const q of queries) {
    const started = performance.now();
    const ids = await searchIds(server.base, headers, { q: q.q, brainId: brain.brainId, graph });
    times.push(performance.now() - started);
    const ranked = ids.map((id) => brain.refOf.get(id) ?? id);
    scores.push({ kind: q.kind, ...scoreQuestion(ranked, q.relevant) });
  }
  times.sort((a, b) => a - b);
  return { scores, medianMs: times[Math.floor(times.length / 2)] };
}

function referenceScores(set, queries) {
  const index = bm25Index(set.snapshots.map((s) => ({ id: s.ref, text: `${s.name} ${s.core}` })));
  return queries.map((q) => ({ kind: q.kind, ...scoreQuestion(index.search(q.q, 10), q.relevant) }));
}

const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const times = (x) => (Number.isFinite(x) ? `${x.toFixed(3)}×` : 'n/a');

/** The set's table: for all questions and for each kind, every ranking and the graph's gain. */
function setTable(set, rankings) {
  const kinds = [...new Set(rankings[0].scores.map((s) => s.kind))].sort();
  const groups = [
    { label: 'all', keep: () => true },
    ...kinds.map((k) => ({ label: `${set.kindField}=${k}`, keep: (s) => s.kind === k })),
  ];
  const rows = [];
  for (const group of groups) {
    const means = new Map(rankings.map((r) => [r, meanScores(r.scores.filter(group.keep))]));
    const n = means.get(rankings[0]).n;
    for (const r of rankings) {
      const m = means.get(r);
      // Answer times are of all questions: shown once, on the `all` rows.
      const msCell = group.label === 'all' ? (r.ms ?? '') : '';
      rows.push([`${group.label} (${n})`, r.label, ...METRICS.map((x) => f3(m[x.name])), msCell]);
      if (r.ratioOf) {
        const base = means.get(r.ratioOf);
        rows.push([
          `${group.label} (${n})`,
          `${r.ratioLabel}`,
          ...METRICS.map((x) => times(m[x.name] / base[x.name])),
          '',
        ]);
      }
    }
  }
  return table(['questions (n)', 'ranking', ...METRICS.map((m) => m.name), 'median ms/query'], rows);
}

export async function run(ctx) {
  const dir = dataDir(ctx.data);
  // The smoke run loads one set (the smaller), which exercises every step.
  const setNames = ctx.set ? [ctx.set] : ctx.quick ? ['hotpotqa'] : Object.keys(SETS);
  for (const name of setNames) if (!SETS[name]) throw new Error(`--set must be one of ${Object.keys(SETS).join(', ')}`);
  if (!dir) {
    return {
      sections: [
        '## Search quality\n\nSkipped: no data (../shared/search-eval/data does not exist; give `--data DIR`).',
      ],
      targets: [target('search-quality', 'nDCG@10 on the search-eval sets', '—', '—', null, 'no data')],
    };
  }
  const backend = ctx.backend ?? 'sqlite';
  const db = await database(backend);
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const headers = { authorization: `Bearer ${db.key}` };
  const sections = [];
  const targets = [];
  try {
    for (const name of setNames) {
      const whole = loadSet(dir, name);
      const title = TITLES[name];
      const queries = ctx.quick ? sampleQueries(whole.queries, QUICK_QUESTIONS) : whole.queries;
      const set = ctx.quick ? subset(whole, queries, QUICK_SNAPSHOTS) : whole;
      const given = await loadBrain(server.base, headers, set, { name: `eval ${name}, given edges`, label: title });
      const auto = await loadBrain(server.base, headers, set, {
        name: `eval ${name}, automatic edges only`,
        label: `${title} (auto_link)`,
        autoLink: true,
        edges: false,
      });
      const linkStarted = Date.now();
      // A build without the linker leaves the queue as it is: the automatic-edge rows are then
      // reported as not measured rather than failing the set.
      let autoBrain;
      let autoProblem;
      try {
        autoBrain = await waitForBackgroundWork(server.base, headers, auto.brainId, { label: `${title} (auto_link)` });
      } catch (err) {
        autoProblem = err.message;
        console.error(`[${id}] ${autoProblem}`);
      }
      const linkWait = (Date.now() - linkStarted) / 1000;

      const reference = { label: 'plain BM25 (reference)', scores: referenceScores(set, queries) };
      const rank = async (brain, graph, label) => {
        console.error(`[${id}] ${title}: ${label}`);
        const result = await evaluate(server, headers, brain, queries, graph);
        return { label, scores: result.scores, ms: result.medianMs.toFixed(1) };
      };
      const off = await rank(given, false, 'graph=false');
      const on = await rank(given, true, 'graph=true');
      Object.assign(on, { ratioOf: off, ratioLabel: 'graph=true ÷ graph=false' });
      const rankings = [reference, off, on];
      if (autoBrain) {
        const autoOff = await rank(auto, false, 'auto edges only, graph=false');
        const autoOn = await rank(auto, true, 'auto edges only, graph=true');
        Object.assign(autoOn, { ratioOf: autoOff, ratioLabel: 'auto: graph=true ÷ graph=false' });
        rankings.push(autoOff, autoOn);
      }

      const all = (r) => meanScores(r.scores)['nDCG@10'];
      const ref = all(reference);
      const gain = all(on) / all(off);
      const [autoOff, autoOn] = rankings.slice(3);
      const checked = !ctx.quick;
      const sectionTargets = [
        target(
          'search-quality',
          `${title}: reference BM25 nDCG@10 vs the published figure`,
          f3(ref),
          `${PUBLISHED_BM25_NDCG[name]} ± 0.01${set === whole ? '' : ' (whole set only)'}`,
          checked && set === whole ? Math.abs(ref - PUBLISHED_BM25_NDCG[name]) <= 0.01 : undefined,
        ),
        target(
          'search-quality',
          `${title}: graph=false nDCG@10 vs plain BM25`,
          `${f3(all(off))} vs ${f3(ref)}`,
          `≥ ${f3(ref)}`,
          checked ? all(off) >= ref : undefined,
        ),
        target(
          'search-quality',
          `${title}: graph=true ÷ graph=false nDCG@10`,
          `${times(gain)} (${f3(all(on))})`,
          `≥ ${GRAPH_GAIN.toFixed(2)}×`,
          checked ? gain >= GRAPH_GAIN : undefined,
        ),
        target(
          'search-quality',
          `${title}: only automatic edges, graph=true ÷ graph=false nDCG@10`,
          autoOn ? `${times(all(autoOn) / all(autoOff))} (${f3(all(autoOn))})` : 'not measured',
          `≥ ${AUTO_GRAPH_GAIN.toFixed(2)}×`,
          checked && autoOn ? all(autoOn) / all(autoOff) >= AUTO_GRAPH_GAIN : undefined,
        ),
      ];
      targets.push(...sectionTargets);
      const verdicts = sectionTargets
        .filter((t) => t.met !== undefined)
        .map((t) => `- ${t.met ? 'PASS' : 'MISS'}: ${t.what}: ${t.value} (target ${t.goal})`);
      const autoText = autoBrain
        ? `the automatic linker made ${autoBrain.edge_count.toLocaleString('en')} edges and finished ` +
          `${linkWait.toFixed(1)} s after the last write`
        : `the automatic-edge brain was not measured (${autoProblem})`;
      sections.push(
        [
          `## Search quality: ${title}`,
          `${set.snapshots.length.toLocaleString('en')} snapshots, ${set.edges.length.toLocaleString('en')} given ` +
            `edges, ${queries.length} of ${set.queries.length} questions${ctx.quick ? ' (--quick: a sample, on part of the set that holds their paragraphs)' : ''}; ` +
            `${backend === 'postgres' ? 'PostgreSQL' : 'SQLite'}. Loaded through the HTTP API in ${given.seconds.toFixed(1)} s ` +
            `(given edges) and ${auto.seconds.toFixed(1)} s (auto_link on, no given edges); ${autoText}. ` +
            `Binary relevance from the authors' labels; nDCG@10 with a log2 discount over the labelled count.`,
          setTable(set, rankings),
          ...(verdicts.length > 0 ? [verdicts.join('\n')] : []),
        ].join('\n\n'),
      );
    }
  } finally {
    await server.stop();
    await db.cleanup();
  }
  return { sections, targets };
}
