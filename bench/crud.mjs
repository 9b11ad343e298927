// One-snapshot GET and snapshot create on each storage backend, as shipped (auth, rate limits
// with an enterprise key, default logging), in interleaved rounds of one run.
//
//   node bench/crud.mjs [--quick] [--rounds N] [--seconds S]
import { parseArgs } from 'node:util';
import { loadTool, measure, summarize } from './lib/load.mjs';
import { createBenchDatabase, postgresAnswers } from './lib/postgres.mjs';
import { prepareDatabase, startSnapgraph } from './lib/server.mjs';

const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, rounds: { type: 'string' }, seconds: { type: 'string' } },
});
const rounds = Number(values.rounds ?? (values.quick ? 1 : 3));
const seconds = Number(values.seconds ?? (values.quick ? 1 : 8));

const backends = [{ name: 'SQLite', db: prepareDatabase() }];
if (await postgresAnswers()) {
  const database = await createBenchDatabase();
  backends.push({ name: 'PostgreSQL', db: { ...prepareDatabase({ databaseUrl: database.url }), drop: database.drop } });
} else {
  console.warn('PostgreSQL does not answer: measuring SQLite only');
}

const body = JSON.stringify({
  name: 'Compounding',
  core: 'Small consistent gains compound over time',
  type: 'Principle',
  challenge: 'Most gains do not persist',
  confidence: 0.8,
  tags: ['habits', 'growth'],
});
const samples = {};
const record = (name, sample) => (samples[name] ??= []).push(sample);

for (let round = 1; round <= rounds; round++) {
  for (const backend of backends) {
    const server = await startSnapgraph({ databaseUrl: backend.db.databaseUrl });
    const headers = { authorization: `Bearer ${backend.db.key}` };
    const created = await fetch(`${server.base}/v1/snapshots`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    const id = (await created.json()).data.id;
    const getUrl = `${server.base}/v1/snapshots/${id}`;
    await measure({ url: getUrl, headers, seconds: Math.max(1, Math.round(seconds / 4)), pid: server.pid });
    for (const [operation, options] of [
      ['GET /v1/snapshots/:id', { url: getUrl }],
      ['POST /v1/snapshots', { url: `${server.base}/v1/snapshots`, method: 'POST', body }],
    ]) {
      const sample = await measure({ ...options, headers, seconds, pid: server.pid });
      if (sample.non2xx > 0) throw new Error(`${backend.name} ${operation}: ${sample.non2xx} non-2xx responses`);
      record(`${operation}|${backend.name}`, sample);
      console.error(`round ${round} ${backend.name} ${operation}: ${sample.rps.toFixed(0)} req/s`);
    }
    await server.stop();
  }
}
for (const backend of backends) {
  backend.db.cleanup();
  await backend.db.drop?.();
}

console.log(`\n${loadTool}, 50 connections, ${rounds} round(s) of ${seconds}s, ${new Date().toISOString()}\n`);
console.log('| operation | backend | req/s median (min–max) | vs SQLite | p50 ms | p99 ms | server CPU µs/req |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const operation of ['GET /v1/snapshots/:id', 'POST /v1/snapshots']) {
  const base = summarize(samples[`${operation}|SQLite`], 'rps').median;
  for (const backend of backends) {
    const s = samples[`${operation}|${backend.name}`];
    const rps = summarize(s, 'rps');
    console.log(
      `| ${operation} | ${backend.name} | ${rps.median.toFixed(0)} (${rps.min.toFixed(0)}–${rps.max.toFixed(0)}) | ${(rps.median / base).toFixed(2)}× | ${summarize(s, 'p50').median.toFixed(2)} | ${summarize(s, 'p99').median.toFixed(2)} | ${summarize(s, 'cpuPerRequestUs').median.toFixed(0)} |`,
    );
  }
}
