// Scratch data: seedSqlite (bench/lib/seed.mjs) into a minimal `snapshots` table, then the
// service's FTS5 table shape (same 4 columns, same indexedValues SQL, same tokenizer,
// contentless_delete) as `t`, rowid = snapshots.rowid (= creation order, as snapshot_search_rows).
import { createRequire } from 'node:module';
import { existsSync, rmSync } from 'node:fs';
import { seedSqlite, SNAPSHOT_COLUMNS } from '../../lib/seed.mjs';
import { snapshotText, vocabulary } from '../../lib/zipf-text.mjs';
import { EDGE_COLUMNS } from '../../../packages/server/dist/store/columns.js';
import { indexedValues } from '../../../packages/server/dist/store/sqlite/search-index-sql.js';
import { spikeDir } from './dir.mjs';

const DIR = spikeDir();
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

const N = Number(process.argv[2]);
const path = `${DIR}/data-${N}.db`;
for (const s of ['', '-wal', '-shm']) if (existsSync(path + s)) rmSync(path + s);
const db = new Database(path);
db.exec(`CREATE TABLE snapshots (account_id, ${SNAPSHOT_COLUMNS.join(', ')})`);
db.exec(`CREATE TABLE edges (account_id, ${EDGE_COLUMNS.join(', ')})`);
db.close();
const t0 = Date.now();
seedSqlite(path, {
  accountId: 'acct_x',
  brainId: 'brain_x',
  snapshots: N,
  edges: 0,
  text: snapshotText({ words: vocabulary(4000) }),
});
const t1 = Date.now();
const db2 = new Database(path);
db2.pragma('journal_mode = WAL');
db2.pragma('synchronous = OFF');
db2.pragma('cache_size = -262144');
db2.exec(`CREATE VIRTUAL TABLE t USING fts5(name, tags, core, body, content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2')`);
db2.exec(`INSERT INTO t (rowid, name, tags, core, body) SELECT s.rowid, ${indexedValues('s')} FROM snapshots s`);
db2.pragma('wal_checkpoint(TRUNCATE)');
const t2 = Date.now();
console.log(
  JSON.stringify({
    N,
    seedSeconds: (t1 - t0) / 1000,
    ftsSeconds: (t2 - t1) / 1000,
    rows: db2.prepare('SELECT count(*) FROM snapshots').pluck().get(),
  }),
);
db2.close();
