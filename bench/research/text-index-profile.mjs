// In-process timing of the SQLite store's in-memory text index on a kept brain (made by
// seed-search-brain.mjs): the size of its postings, its ranking alone, per posting, and
// textMatches (ranking plus the rows' look-up), for 600 two-word queries drawn as the search
// benchmark draws its words.
//   npm run build
//   node bench/research/seed-search-brain.mjs <dir> 1000000 > <dir>/seed.json
//   node bench/research/text-index-profile.mjs <dir>/seed.json
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { SqliteStore } from '../../packages/server/dist/store/sqlite/sqlite-store.js';
import { parseQuery } from '../../packages/server/dist/domain/search/query.js';
import { random, vocabulary } from '../lib/zipf-text.mjs';

const { databaseUrl, brain_id: brainId } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const store = new SqliteStore(databaseUrl);
const built = new Promise((resolve) => store.search.onTextIndexEvent(resolve));
const words = vocabulary(4_000);
const next = random(42);
const [first, last] = [100, 3_000].map(Math.log);
const word = () => words[Math.floor(Math.exp(first + next() * (last - first)))];
const queries = Array.from({ length: 600 }, () => parseQuery(`${word()} ${word()}`));
await store.search.textMatches({ brainId }, queries[0], 30); // starts the build
console.log(await built);

// Reaching into the store: the index is private to it, and this measures it alone.
const live = store.search.textIndex;
const index = live.current();
const scope = index.scopeOf(brainId, undefined);
const terms = queries.map((q) => q.terms.map((w) => live.termOf(w)));
const postings = terms.reduce((sum, ts) => sum + ts.reduce((s, t) => s + index.decode(t, 0), 0), 0);
const stored = index.postings;
const allPostings = stored.termCount.reduce((sum, n) => sum + n, 0);
console.log(
  `postings: ${allPostings.toLocaleString('en')}, ${(stored.bytes.length / 2 ** 20).toFixed(0)} MiB ` +
    `(${(stored.bytes.length / allPostings).toFixed(2)} bytes each), block table ` +
    `${((stored.blockOffset.byteLength + stored.blockLast.byteLength) / 2 ** 20).toFixed(1)} MiB`,
);
const at = (list, p) => list.slice().sort((a, b) => a - b)[Math.floor(p * (list.length - 1))];
for (let pass = 1; pass <= 3; pass++) {
  const rank = [];
  const text = [];
  const counts = [];
  let total = 0;
  for (const ts of terms) {
    const started = performance.now();
    counts.push(index.rank(ts, scope, 30).count);
    const ms = performance.now() - started;
    rank.push(ms);
    total += ms;
  }
  for (const q of queries) {
    const started = performance.now();
    await store.search.textMatches({ brainId }, q, 30);
    text.push(performance.now() - started);
  }
  console.log(
    `pass ${pass}: rank p50 ${at(rank, 0.5).toFixed(2)} / p95 ${at(rank, 0.95).toFixed(2)} ms ` +
      `(${((total * 1e6) / postings).toFixed(1)} ns a posting), textMatches p50 ${at(text, 0.5).toFixed(2)} / ` +
      `p95 ${at(text, 0.95).toFixed(2)} ms; matches p50 ${at(counts, 0.5)}, p95 ${at(counts, 0.95)}`,
  );
}
await store.close();
