// How long one small write holds the event loop (issue 34, "no request can freeze the server"):
// POST /v1/snapshots with every text field at its limit (130,700 characters of prose, or of one
// unbroken word) and with 400 characters, and POST /v1/memories with 10,000 characters and with
// 400, each in a brain of 200 snapshots that links automatically; the event loop's longest delay
// (monitorEventLoopDelay) from the request until the background linker has had its turn. The
// application in-process on SQLite (the tests' harness), sources through tsx, no build needed:
//   nice -n 10 node --import tsx bench/small-writes-loop.mjs [--rounds 5]
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApi } from '../packages/server/test/helpers/harness.ts';
import { prose } from '../packages/server/test/compute/prose.ts';

const i = process.argv.indexOf('--rounds');
const ROUNDS = i === -1 ? 5 : Number(process.argv[i + 1]);

const api = await startTestApi();
const key = await api.newKey();
let seed = 1;
const text = (n) => prose(n, seed++).slice(0, n);
const word = (n) => `${'QUJD'.repeat(Math.ceil(n / 4)).slice(0, n - 4)}${String(seed++ % 10_000).padStart(4, '0')}`;
const fields = (make) => ({
  name: make(200),
  core: make(10_000),
  one_liner: make(500),
  story: make(20_000),
  method: make(20_000),
  steps: make(20_000),
  challenge: make(20_000),
  proof: make(20_000),
});
for (let n = 0; n < 200; n++)
  await api.request('POST', '/v1/snapshots', { key, body: { name: `seed ${n}`, core: text(400) } });

const cases = [
  ['POST /v1/snapshots, 400 characters', '/v1/snapshots', () => ({ name: 'small', core: text(400) })],
  ['POST /v1/snapshots, every field at its limit, prose', '/v1/snapshots', () => fields(text)],
  ['POST /v1/snapshots, every field at its limit, one word', '/v1/snapshots', () => fields(word)],
  ['POST /v1/memories, 400 characters', '/v1/memories', () => ({ content: text(400) })],
  ['POST /v1/memories, 10,000 characters', '/v1/memories', () => ({ content: text(10_000) })],
];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log('| write | longest loop delay, median of the rounds (ms) | worst round (ms) |');
console.log('| ----- | --- | --- |');
// A round of each first, unmeasured: the first of a kind pays for preparing its statements.
for (const [, url, body] of cases) await api.request('POST', url, { key, body: body() });
for (const [label, url, body] of cases) {
  const delays = [];
  for (let r = 0; r < ROUNDS; r++) {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const res = await api.request('POST', url, { key, body: body() });
    if (res.status !== 201) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
    await sleep(1500); // the background linker's turn
    histogram.disable();
    delays.push(histogram.max / 1e6);
  }
  console.log(`| ${label} | ${median(delays).toFixed(0)} | ${Math.max(...delays).toFixed(0)} |`);
}
await api.close();
