// What crystallize extracts, through the HTTP API as a client would (issue: crystallize finds the
// claim, its evidence and its counterargument), on `snapgraph serve` as shipped (SQLite):
// 1. the argumentative microtexts of ../shared/crystallize-eval (or --data DIR), one brain per
//    text, the built-in extractor: claim F1 of `core`, challenge F1, proof F1, snapshots a text
//    (targets: claim F1 >= 0.70, challenge F1 >= 0.40, <= 2 snapshots a text), beside the
//    first-sentence baseline computed here;
// 2. the same texts with an LLM: a fake OpenAI-protocol provider that answers each text with its
//    annotation (the claim as core, the opponent's units as challenge, the rest as proof): the
//    pipeline must keep what the model said (F1 near 1);
// 3. bench/crystallize-samples.json, texts written for this benchmark (meeting notes, a
//    transcript, a retro, personal notes, a how-to, short arguments): decisions found as Rules,
//    header/attendee/greeting lines that became a snapshot (target: none), names as tags;
// 4. cost: crystallize of one unbroken word and of prose at 25k/50k/100k characters, the median
//    of --rounds runs each, and the ratio 100k/25k (target <= 5: linear, not quadratic).
//   npm run build && nice -n 10 node bench/crystallize-quality.mjs [--data DIR] [--rounds 3] [--only eval,llm,samples,cost]
//   [--tune-on d,k1]: the parts the rules are tuned on (d, k1, k2: series k split in two halves by
//   id, microtextPart; a series letter names all its parts); the others are reported as held out.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runMain } from './lib/cleanup.mjs';
import { firstSentence, mean, microtextPart, scoreArgument, scoreSample, tokenF1 } from './lib/crystallize-measure.mjs';
import { requestJson } from './lib/http.mjs';
import { prepareDatabase, REPO, startSnapgraph } from './lib/server.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const ROUNDS = Number(option('rounds', 3));
const ONLY = new Set(option('only', 'eval,llm,samples,cost').split(','));

function dataFile() {
  const given = option('data', undefined);
  const candidates = given
    ? [resolve(given)]
    : [resolve(REPO, '../shared/crystallize-eval'), resolve(REPO, '../../shared/crystallize-eval')];
  for (const dir of candidates) {
    const file = dir.endsWith('.jsonl') ? dir : join(dir, 'microtexts-dev.jsonl');
    if (existsSync(file)) return file;
  }
  if (given) throw new Error(`--data ${given}: no microtexts-dev.jsonl there`);
  return undefined;
}

const readJsonl = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

/** Crystallizes each text into a brain of its own; returns each text's snapshots. */
async function crystallizeEach(server, key, texts) {
  const headers = { authorization: `Bearer ${key}` };
  const out = [];
  for (const [i, text] of texts.entries()) {
    const brain = await requestJson('POST', `${server.base}/v1/brains`, { headers, body: { name: `text ${i}` } });
    const body = await requestJson('POST', `${server.base}/v1/crystallize`, {
      headers,
      body: { text, brain_id: brain.data.id },
      timeoutMs: 120_000,
    });
    out.push({ snapshots: body.data.snapshots, edges: body.data.edges.length, meta: body.meta });
  }
  return out;
}

async function withServer(env, fn) {
  const db = prepareDatabase();
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl, env });
  try {
    return await fn(server, db.key);
  } finally {
    await server.stop();
  }
}

function summarize(rows, results) {
  const scores = rows.map((row, i) => scoreArgument(results[i].snapshots, row));
  const withOpp = scores.filter((s) => s.hasOpp);
  return {
    claim: mean(scores.map((s) => s.claim)),
    challenge: mean(withOpp.map((s) => s.challenge)),
    challengeAll: mean(scores.map((s) => s.challenge)),
    proof: mean(scores.map((s) => s.proof)),
    perText: mean(scores.map((s) => s.count)),
    texts: rows.length,
    withOpp: withOpp.length,
  };
}

/** A chat-completions endpoint that answers each text with its annotation. */
async function startAnnotationProvider(rows) {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || body === '') {
        // The readiness probe.
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'annotation', object: 'model' }] }));
        return;
      }
      const chunk = JSON.parse(body).messages.find((m) => m.role === 'user').content;
      // The text as the server sends it (apostrophes made plain); two texts may open alike.
      const plain = (text) => text.replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, ' ');
      const sent = plain(chunk);
      const row =
        rows.find((r) => sent.includes(plain(r.text))) ?? rows.find((r) => sent.includes(plain(r.text.slice(0, 60))));
      const insights = row
        ? [
            {
              name: row.claim.split(/\s+/).slice(0, 8).join(' '),
              core: row.claim,
              type: 'Belief',
              one_liner: row.claim,
              story: null,
              method: null,
              steps: null,
              challenge: row.opp.length > 0 ? row.opp.join(' ') : null,
              proof: row.pro.length > 0 ? row.pro.join(' ') : null,
              tags: ['argument'],
              confidence: 0.7,
              significance_score: 0.8,
            },
          ]
        : [];
      const content = JSON.stringify({ insights });
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: Math.ceil(chunk.length / 4), completion_tokens: Math.ceil(content.length / 4) },
        }),
      );
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => new Promise((done) => server.close(done)),
  };
}

const f2 = (x) => x.toFixed(2);

async function evalSet(rows) {
  const results = await withServer({}, (server, key) =>
    crystallizeEach(
      server,
      key,
      rows.map((r) => r.text),
    ),
  );
  const s = summarize(rows, results);
  const baseline = mean(rows.map((r) => tokenF1(firstSentence(r.text), r.claim)));
  const edges = mean(results.map((r) => r.edges));
  console.log(`Microtexts (${s.texts} texts, ${s.withOpp} with an opponent's unit), built-in extractor:`);
  console.log(
    `  claim F1 of core ${f2(s.claim)} (target >= 0.70: ${s.claim >= 0.7 ? 'met' : 'MISSED'}; first sentence ${f2(baseline)})`,
  );
  console.log(
    `  challenge F1 ${f2(s.challenge)} over the ${s.withOpp} texts with an opponent's unit, ${f2(s.challengeAll)} over all ` +
      `(target >= 0.40: ${s.challengeAll >= 0.4 ? 'met' : 'MISSED'})`,
  );
  console.log(
    `  proof F1 ${f2(s.proof)}; snapshots a text ${f2(s.perText)} (target <= 2: ${s.perText <= 2 ? 'met' : 'MISSED'})`,
  );
  console.log(`  automatic edges a text ${f2(edges)}`);
  // Generalization: the rules are tuned on some parts and checked on the others, so a rule that
  // only fits the texts it was written on shows up as a gap. Parts: series d, and series k split
  // in two halves by id (k1, k2; bench/lib/crystallize-measure.mjs, microtextPart). --tune-on
  // d,k1 (the default): k2 is held out; each part is printed on its own line.
  const tuneOn = new Set(option('tune-on', 'd,k1').split(','));
  const partOf = (row) => microtextPart(row, rows);
  const parts = [...new Set(rows.map(partOf))].sort();
  for (const [label, keep] of [
    ...parts.map((name) => [
      `part ${name} (${tuneOn.has(name) || tuneOn.has(name[0]) ? 'tuned on' : 'held out'})`,
      (row) => partOf(row) === name,
    ]),
    [`tuned on (${[...tuneOn].join(', ')})`, (row) => tuneOn.has(partOf(row)) || tuneOn.has(partOf(row)[0])],
    [`held out (the rest)`, (row) => !(tuneOn.has(partOf(row)) || tuneOn.has(partOf(row)[0]))],
  ]) {
    const picked = rows.map((row, i) => [row, results[i]]).filter(([row]) => keep(row));
    if (picked.length === 0) continue;
    const part = summarize(
      picked.map(([row]) => row),
      picked.map(([, result]) => result),
    );
    console.log(
      `  ${label}, ${part.texts} texts: claim F1 ${f2(part.claim)}, challenge F1 ${f2(part.challengeAll)} ` +
        `(${f2(part.challenge)} over the ${part.withOpp} with an opponent's unit), proof F1 ${f2(part.proof)}, ` +
        `snapshots a text ${f2(part.perText)}`,
    );
  }
}

async function llmSet(rows) {
  const provider = await startAnnotationProvider(rows);
  try {
    const env = { LLM_BASE_URL: provider.url, LLM_MODEL: 'annotation', LLM_TIMEOUT_MS: '30000' };
    const results = await withServer(env, (server, key) =>
      crystallizeEach(
        server,
        key,
        rows.map((r) => r.text),
      ),
    );
    const s = summarize(rows, results);
    // What the pipeline changed of the model's answer, text by text.
    rows.forEach((row, i) => {
      const score = scoreArgument(results[i].snapshots, row);
      if (score.claim < 0.999 || (score.hasOpp && score.challenge < 0.999)) {
        console.log(`  ${row.id}: claim F1 ${f2(score.claim)}, challenge F1 ${f2(score.challenge)}`);
      }
    });
    console.log(`Microtexts with an LLM answering from the annotation (the pipeline keeps what the model said):`);
    console.log(
      `  claim F1 ${f2(s.claim)}, challenge F1 ${f2(s.challenge)}, proof F1 ${f2(s.proof)}, snapshots a text ${f2(s.perText)}`,
    );
  } finally {
    await provider.close();
  }
}

async function samples() {
  const data = JSON.parse(readFileSync(new URL('./crystallize-samples.json', import.meta.url), 'utf8'));
  const texts = [...data.samples, ...data.arguments].map((s) => s.text);
  const results = await withServer({}, (server, key) => crystallizeEach(server, key, texts));
  console.log('Own samples (bench/crystallize-samples.json), built-in extractor:');
  let decisions = 0;
  let decisionsFound = 0;
  data.samples.forEach((sample, i) => {
    const r = scoreSample(results[i].snapshots, sample);
    decisions += r.decisions;
    decisionsFound += r.decisionsFound;
    console.log(
      `  ${sample.id} (${sample.kind}): ${r.count} snapshots, ${results[i].edges} edges; insights ${r.found}/${r.insights}; ` +
        `decisions as Rules ${r.decisionsFound}/${r.decisions}; header/attendee/greeting lines as snapshots: ` +
        `${r.forbidden.length === 0 ? 'none' : r.forbidden.join(' | ')}; names as tags: ${r.nameTags.length === 0 ? 'none' : r.nameTags.join(', ')}` +
        (r.missed.length > 0 ? `; missed: ${r.missed.join(' | ')}` : ''),
    );
  });
  console.log(`  decisions found as Rules: ${decisionsFound}/${decisions}`);
  const args = data.arguments.map((row) => ({ ...row, pro: row.pro ?? [] }));
  const s = summarize(args, results.slice(data.samples.length));
  console.log(
    `  own short arguments (${args.length}): claim F1 ${f2(s.claim)}, challenge F1 ${f2(s.challenge)}, snapshots a text ${f2(s.perText)}`,
  );
}

/** Prose of `size` characters from `texts`, in paragraphs, each text used in turn. */
function proseOf(texts, size) {
  let text = '';
  for (let i = 0; text.length < size; i++) text += `${texts[i % texts.length]}\n\n`;
  return text.slice(0, size).replace(/\s+\S*$/, '.');
}

async function cost(rows) {
  const data = JSON.parse(readFileSync(new URL('./crystallize-samples.json', import.meta.url), 'utf8'));
  const texts = rows ? rows.map((r) => r.text) : data.samples.map((s) => s.text);
  const sizes = [25_000, 50_000, 100_000];
  const kinds = {
    'one unbroken word': (size) => `Base64 blob follows: ${'QUJD'.repeat(Math.ceil(size / 4))}`.slice(0, size),
    prose: (size) => proseOf(texts, size),
  };
  await withServer({}, async (server, key) => {
    const headers = { authorization: `Bearer ${key}` };
    // Warm-up: the first request loads the language model.
    await requestJson('POST', `${server.base}/v1/crystallize`, { headers, body: { text: proseOf(texts, 2000) } });
    console.log(`Crystallize cost (median of ${ROUNDS}, each in a new brain):`);
    for (const [kind, make] of Object.entries(kinds)) {
      const medians = [];
      for (const size of sizes) {
        const times = [];
        for (let round = 0; round < ROUNDS; round++) {
          const brain = await requestJson('POST', `${server.base}/v1/brains`, {
            headers,
            body: { name: `${kind} ${size} ${round}` },
          });
          const started = performance.now();
          await requestJson('POST', `${server.base}/v1/crystallize`, {
            headers,
            body: { text: make(size), brain_id: brain.data.id },
            timeoutMs: 600_000,
          });
          times.push(performance.now() - started);
        }
        medians.push(times.sort((a, b) => a - b)[Math.floor(times.length / 2)]);
      }
      const ratio = medians[2] / medians[0];
      console.log(
        `  ${kind}: ${sizes.map((size, i) => `${size / 1000}k ${medians[i].toFixed(0)} ms`).join(', ')}; ` +
          `100k/25k ${ratio.toFixed(2)} (target <= 5: ${ratio <= 5 ? 'met' : 'MISSED'})`,
      );
    }
  });
}

await runMain(async () => {
  const file = dataFile();
  const rows = file ? readJsonl(file) : undefined;
  if (!rows) console.log('crystallize-eval not found (--data DIR): the microtext measures are skipped');
  if (rows && ONLY.has('eval')) await evalSet(rows);
  if (rows && ONLY.has('llm')) await llmSet(rows);
  if (ONLY.has('samples')) await samples();
  if (ONLY.has('cost')) await cost(rows);
});
