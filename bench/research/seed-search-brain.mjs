// Seeds one search-benchmark brain (the text and edges of bench/scenarios/search.mjs) into a
// database that is kept, for profiling search at a size outside the benchmark's own run:
//   npm run build && node bench/research/seed-search-brain.mjs <dir> <snapshots>
// Prints the database path and the key (JSON).
import { join } from 'node:path';
import { seedSqlite } from '../lib/seed.mjs';
import { prepareDatabase } from '../lib/server.mjs';
import { snapshotText, vocabulary } from '../lib/zipf-text.mjs';

const [dir, count] = [process.argv[2], Number(process.argv[3])];
const db = prepareDatabase({ databaseUrl: join(dir, 'search.db') });
seedSqlite(db.databaseUrl, {
  accountId: db.account_id,
  brainId: db.brain_id,
  snapshots: count,
  edges: count * 3,
  text: snapshotText({ words: vocabulary(4_000) }),
});
console.log(JSON.stringify({ databaseUrl: db.databaseUrl, key: db.key, brain_id: db.brain_id }));
