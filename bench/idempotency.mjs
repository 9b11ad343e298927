// What Idempotency-Key costs a write: POST /v1/snapshots on one server, in interleaved rounds
// of three kinds of request — without a key, each with a fresh key (the work plus keeping the
// response), and replays of one key (no work: the kept response). autocannon, 10 connections,
// SQLite unless --backend postgres (then SNAPGRAPH_BENCH_POSTGRES_URL or the local server).
//   npm run build && node bench/idempotency.mjs [--rounds 3] [--seconds 5]
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { runMain } from './lib/cleanup.mjs';
import { prepareDatabase, startSnapgraph } from './lib/server.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const rounds = Number(arg('rounds', 3));
const seconds = Number(arg('seconds', 5));

function load(base, key, idempotencyKey) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${base}/v1/snapshots`,
        connections: 10,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
              const idem = idempotencyKey();
              if (idem) headers['idempotency-key'] = idem;
              return { ...request, headers, body: JSON.stringify({ name: 'Bench', core: 'A write under load' }) };
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

await runMain(async () => {
  const db = prepareDatabase();
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const kinds = {
    'no key': () => undefined,
    'fresh key each': () => randomUUID(),
    'replay of one key': () => 'the-same-key',
  };
  // The replayed key's first use, alone: concurrent first uses would be 409s (in flight).
  const first = await fetch(`${server.base}/v1/snapshots`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${db.key}`,
      'idempotency-key': 'the-same-key',
    },
    body: JSON.stringify({ name: 'Bench', core: 'A write under load' }),
  });
  if (first.status !== 201) throw new Error(`first use of the key: ${first.status}`);
  const samples = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, idem] of Object.entries(kinds)) {
      const result = await load(server.base, db.key, idem);
      if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
      samples[name].push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`POST /v1/snapshots, SQLite, 10 connections, ${rounds} rounds × ${seconds} s (medians)\n`);
  console.log('| request | req/s | p50 ms | p99 ms |\n| --- | --- | --- | --- |');
  for (const [name, list] of Object.entries(samples)) {
    const m = (f) => median(list.map((s) => s[f]));
    console.log(`| ${name} | ${Math.round(m('rps'))} | ${m('p50')} | ${m('p99')} |`);
  }
  await server.stop();
});
