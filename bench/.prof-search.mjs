// Not committed: profiles Snapgraph search at 10 connections on a 100k/300k brain.
import { prepareDatabase, startNodeServer } from './lib/server.mjs';
import { seedSqlite } from './lib/seed.mjs';
import { measure } from './lib/load.mjs';
import { random, snapshotText, vocabulary } from './lib/zipf-text.mjs';
import { existsSync, writeFileSync, readFileSync } from 'node:fs';
const state = '/tmp/prof-search-db.json';
let db;
if (existsSync(state)) db = JSON.parse(readFileSync(state, 'utf8'));
else {
  db = prepareDatabase({ parentDir: '/tmp' });
  seedSqlite(db.databaseUrl, { accountId: db.account_id, brainId: db.brain_id, snapshots: 100_000, edges: 300_000, text: snapshotText() });
  writeFileSync(state, JSON.stringify(db));
}
const words = vocabulary(4000); const next = random(42);
const [a, b] = [Math.log(100), Math.log(3000)];
const w = () => words[Math.floor(Math.exp(a + next() * (b - a)))];
const graph = process.argv[2] ?? 'true';
const urls = Array.from({ length: 2000 }, () => `/v1/snapshots/search?q=${encodeURIComponent(w() + ' ' + w())}&brain_id=${db.brain_id}&limit=10&graph=${graph}`);
const args = process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/searchprof'] : [];
const server = await startNodeServer({ name: 'sg', args: [...args, 'packages/server/bin/snapgraph.js', 'serve'], env: { DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info' } });
const headers = { authorization: `Bearer ${db.key}` };
await measure({ urls: urls.map((u) => server.base + u), headers, seconds: 3, connections: 10, pid: server.pid });
const r = await measure({ urls: urls.map((u) => server.base + u), headers, seconds: 8, connections: 10, pid: server.pid });
console.log(`graph=${graph}: ${r.rps.toFixed(0)} req/s, ${r.cpuPerRequestUs.toFixed(0)} µs CPU/req, non2xx ${r.non2xx}`);
await server.stop();
