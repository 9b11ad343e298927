// Builds a brain's word index (flat.ts) off the request thread, with a connection of its
// own to the file: the log's newest seq and the brain's texts in one read transaction, then the
// flat index, handed back without a copy.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { IndexedMemoryText } from './feed-types.js';
import { flatBuffers, flatWordsOf } from './flat.js';

const { path, read } = workerData as { path: string; read: { seq: string; texts: string; lo: number; hi: number } };
const db = new Database(path, { readonly: true });
db.pragma('busy_timeout = 5000');
try {
  const { seq, rows } = db.transaction(() => ({
    seq: db.prepare(read.seq).pluck().get() as number,
    rows: db.prepare(read.texts).all({ lo: BigInt(read.lo), hi: BigInt(read.hi) }) as (Omit<
      IndexedMemoryText,
      'tags'
    > & { tags: string })[],
  }))();
  const flat = flatWordsOf(rows.map((row) => ({ ...row, tags: JSON.parse(row.tags) as string[] })));
  parentPort?.postMessage({ seq, flat }, flatBuffers(flat));
} finally {
  db.close();
}
