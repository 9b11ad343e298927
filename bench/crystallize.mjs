// What crystallize costs (issue: crystallize and knowledge ingestion), on `snapgraph serve` as
// shipped (SQLite, an enterprise key whose limits never bind):
// 1. the built-in extractor: POST /v1/crystallize of 10,000-character texts, one at a time, each
//    text new to the brain (so every request does the whole work), p50/p95/max (target p95 < 300 ms);
// 2. an LLM: a fake OpenAI-compatible provider on loopback that answers every chat call after a
//    fixed delay; a 50,000-character text is crystallized and the provider's calls and the wall
//    time reported (one call per chunk is the minimum the phases need).
//   npm run build && node bench/crystallize.mjs [--requests 30] [--delay-ms 500]
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runMain } from './lib/cleanup.mjs';
import { requestJson } from './lib/http.mjs';
import { cpuMs, prepareDatabase, startSnapgraph } from './lib/server.mjs';
import { cueText } from './lib/cue-text.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const REQUESTS = arg('requests', 30);
const DELAY_MS = arg('delay-ms', 500);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A chat-completions endpoint that waits `delayMs`, then proposes one insight per sentence of the chunk. */
async function startSlowProvider(delayMs) {
  let calls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || body === '') {
        // The readiness probe, not a chat call.
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model' }] }));
        return;
      }
      calls += 1;
      const request = JSON.parse(body);
      const chunk = request.messages.find((m) => m.role === 'user').content;
      const sentences = chunk.match(/[^.!?]+[.!?]/g) ?? [];
      const insights = sentences.map((s) => ({
        name: s.trim().split(/\s+/).slice(0, 5).join(' '),
        core: s.trim(),
        type: 'Belief',
        one_liner: s.trim(),
        story: null,
        method: null,
        steps: null,
        challenge: null,
        proof: null,
        tags: ['bench'],
        confidence: 0.6,
        significance_score: 0.5,
      }));
      const content = JSON.stringify({ insights });
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: Math.ceil(chunk.length / 4), completion_tokens: Math.ceil(content.length / 4) },
          }),
        );
      }, delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function builtin() {
  const db = prepareDatabase();
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const headers = { authorization: `Bearer ${db.key}` };
  try {
    // Warm-up: the first request loads the extractor's language model.
    await requestJson('POST', `${server.base}/v1/crystallize`, { headers, body: { text: cueText(0, 10_000) } });
    const times = [];
    let snapshots = 0;
    // The server's CPU time per request says what the work costs whatever else the machine does.
    const cpuBefore = cpuMs(server.pid);
    for (let i = 1; i <= REQUESTS; i++) {
      const started = performance.now();
      // requestJson rejects anything but a 2xx, with the answer's status and body.
      const body = await requestJson('POST', `${server.base}/v1/crystallize`, {
        headers,
        body: { text: cueText(i, 10_000) },
      });
      times.push(performance.now() - started);
      snapshots += body.data.count;
    }
    const cpuPerRequest = (cpuMs(server.pid) - cpuBefore) / REQUESTS;
    const sorted = [...times].sort((a, b) => a - b);
    return {
      cpuPerRequest,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      max: sorted.at(-1),
      snapshots: snapshots / REQUESTS,
    };
  } finally {
    await server.stop();
  }
}

async function withLlm() {
  const provider = await startSlowProvider(DELAY_MS);
  const db = prepareDatabase();
  const server = await startSnapgraph({
    databaseUrl: db.databaseUrl,
    env: { LLM_BASE_URL: provider.url, LLM_MODEL: 'bench', LLM_TIMEOUT_MS: '60000' },
  });
  try {
    const text = cueText(99, 50_000);
    const started = performance.now();
    const body = await requestJson('POST', `${server.base}/v1/crystallize`, {
      headers: { authorization: `Bearer ${db.key}` },
      body: { text },
      timeoutMs: 300_000,
    });
    const wallMs = performance.now() - started;
    return { calls: provider.calls(), wallMs, snapshots: body.data.count, tokens: body.usage.totalTokens };
  } finally {
    await server.stop();
    await provider.close();
  }
}

await runMain(async () => {
  const load = loadavg()[0].toFixed(1);
  const local = await builtin();
  const llm = await withLlm();
  const chunks = Math.ceil(50_000 / 4 / Math.floor(4096 * 0.4));
  console.log(`Crystallize (load average ${load} at the start)`);
  console.log(
    `  built-in extractor, ${REQUESTS} texts of 10,000 characters: p50 ${local.p50.toFixed(0)} ms, ` +
      `p95 ${local.p95.toFixed(0)} ms, max ${local.max.toFixed(0)} ms (target p95 < 300 ms: ` +
      `${local.p95 < 300 ? 'met' : 'MISSED'}); server CPU ${local.cpuPerRequest.toFixed(0)} ms a request; ` +
      `${local.snapshots.toFixed(1)} snapshots a text`,
  );
  console.log(
    `  LLM answering after ${DELAY_MS} ms, 50,000 characters (LLM_CONTEXT_TOKENS 4096, about ${chunks} chunks): ` +
      `${llm.calls} provider call(s), ${(llm.wallMs / 1000).toFixed(1)} s wall, ${llm.snapshots} snapshots, ${llm.tokens} tokens`,
  );
});
