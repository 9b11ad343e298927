// Large writes beside small ones (issue 46): while one account makes a large write, another
// account writes a small snapshot every 100 ms and /healthz is asked every 50 ms. Reports the
// large write's time and status, /healthz's worst latency, and the small writes' worst latency and
// 5xx count. Scenarios: one Free-plan 1 MB POST /v1/specific-knowledge/ingest (about 12,000
// entries), and four concurrent 1 MB POST /v1/ingest with extract_memories. The application
// in-process (the tests' harness: SQLite, or PostgreSQL with SNAPGRAPH_TEST_BACKEND=postgres),
// sources through tsx, no build needed:
//   node --import tsx bench/large-writes.mjs [--scenario knowledge|ingest|both] [--size chars] [--ingests n]
// --size: each large write's characters (1,000,000 unless given); --ingests: how many concurrent
// ingests with extract_memories (4 unless given).
// The small writes and /healthz go through app.inject on the server's event loop; the large
// writes are sent over HTTP from a worker thread, as from another process: reading a 10 MB
// answer is the client's work, and on the server's thread it would count as the server's stall.
// Each route is called once first with a small body: the harness compiles a route's schemas on
// its first use, which a server does at start.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { startTestApi } from '../packages/server/test/helpers/harness.ts';
import { prose } from '../packages/server/test/compute/prose.ts';

/** The value after `--name`, or `fallback`. */
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const SCENARIO = option('scenario', 'both');
const MB = Number(option('size', 1_000_000));
const INGESTS = Number(option('ingests', 4));
const size = MB === 1_000_000 ? '1 MB' : `${MB.toLocaleString('en')}-character`;

const api = await startTestApi();
const writer = await api.newKey({ plan: 'pro' });
const base = await api.app.listen({ host: '127.0.0.1', port: 0 });

/** The large writes' client: a thread of its own that posts over HTTP and reads the whole answer. */
const client = new Worker(
  // node:http rather than fetch: fetch gives up on an answer that takes over 300 s.
  `const { parentPort } = require('node:worker_threads');
  const http = require('node:http');
  parentPort.on('message', ({ id, url, key, body }) => {
    const headers = { authorization: 'Bearer ' + key, 'content-type': 'application/json' };
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const error = res.statusCode >= 300 ? Buffer.concat(chunks).toString().slice(0, 300) : undefined;
        parentPort.postMessage({ id, status: res.statusCode, error });
      });
    });
    req.on('error', (error) => parentPort.postMessage({ id, status: 0, error: String(error) }));
    req.end(body);
  });`,
  { eval: true },
);
const answers = new Map();
client.on('message', ({ id, status, error }) => {
  if (error) console.error(error);
  answers.get(id)(status);
});
let calls = 0;
/** POSTs `body` to `path` from the client thread; its status. */
function post(path, key, body) {
  const id = ++calls;
  return new Promise((resolve) => {
    answers.set(id, resolve);
    client.postMessage({ id, url: `${base}${path}`, key: key.key, body: JSON.stringify(body) });
  });
}
for (const [path, body] of [
  ['/v1/specific-knowledge/ingest', { source_type: 'book', title: 'Warm-up', content: prose(20_000, 99) }],
  ['/v1/ingest', { content: prose(20_000, 98), source_type: 'document', extract_memories: true }],
]) {
  const key = await api.newKey({ plan: 'pro' });
  await post(path, key, body);
  await api.request('POST', path, { key, body });
}
await api.request('POST', '/v1/snapshots', { key: writer, body: { name: 'warm-up', core: 'A first small write' } });
await api.request('GET', '/healthz');

/** Runs `large` while the small writes and /healthz go on; their figures. */
async function beside(label, large) {
  let running = true;
  const small = { latencies: [], statuses: {} };
  const health = [];
  const smallLoop = (async () => {
    const inFlight = [];
    for (let n = 0; running; n++) {
      const started = performance.now();
      inFlight.push(
        api
          .request('POST', '/v1/snapshots', {
            key: writer,
            body: { name: `small ${n}`, core: `A small write, number ${n}` },
          })
          .then((res) => {
            small.latencies.push(performance.now() - started);
            small.statuses[res.status] = (small.statuses[res.status] ?? 0) + 1;
          }),
      );
      await sleep(100);
    }
    await Promise.all(inFlight);
  })();
  const healthLoop = (async () => {
    // From when it was due: a request sent late because the event loop was held counts the wait.
    while (running) {
      const due = performance.now() + 50;
      await sleep(50);
      await api.request('GET', '/healthz');
      health.push(performance.now() - due);
    }
  })();
  const started = performance.now();
  const statuses = await large();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await Promise.all([smallLoop, healthLoop]);
  const fivexx = Object.entries(small.statuses)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  const row = [
    label,
    statuses.join(', '),
    seconds.toFixed(1),
    Math.max(...health).toFixed(0),
    Math.max(...small.latencies).toFixed(0),
    `${fivexx} of ${small.latencies.length}`,
  ];
  console.log(`| ${row.join(' | ')} |`);
}

console.log(`backend: ${process.env.SNAPGRAPH_TEST_BACKEND ?? 'sqlite'}`);
console.log(
  '| large write | its status | its time (s) | /healthz worst (ms) | small write worst (ms) | small writes 5xx |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
let seed = 1;
if (SCENARIO !== 'ingest') {
  const free = await api.newKey({ plan: 'free' });
  // Made before the measuring starts: a megabyte of prose is the bench's work, not the server's.
  const body = { source_type: 'book', title: 'A long book', content: prose(MB, seed++).slice(0, MB) };
  await beside(`one Free-plan ${size} knowledge ingest`, async () => {
    return [await post('/v1/specific-knowledge/ingest', free, body)];
  });
}
if (SCENARIO !== 'knowledge') {
  const keys = [];
  for (let k = 0; k < INGESTS; k++) keys.push(await api.newKey({ plan: 'pro' }));
  const bodies = keys.map(() => ({
    content: prose(MB, seed++).slice(0, MB),
    source_type: 'document',
    extract_memories: true,
  }));
  const ingests = INGESTS === 1 ? `one ${size} ingest` : `${INGESTS} concurrent ${size} ingests`;
  await beside(`${ingests} with extract_memories`, () =>
    Promise.all(keys.map((key, k) => post('/v1/ingest', key, bodies[k]))),
  );
}
await client.terminate();
await api.close();
