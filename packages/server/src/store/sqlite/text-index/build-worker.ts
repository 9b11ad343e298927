// Builds a base segment off the request thread, with a connection of its own to the file: the
// segment's buffers are handed back without a copy, then the change log's older entries pruned.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { buildBaseSegment, pruneChanges, segmentBuffers } from './build.js';
import { ChangeLog } from './changes.js';

const { path, types } = workerData as { path: string; types: string[] };
const db = new Database(path);
db.pragma('busy_timeout = 5000');
try {
  const segment = buildBaseSegment(db, types);
  parentPort?.postMessage(segment, segmentBuffers(segment));
  // A pause between transactions, so that the server's writes waiting for the lock get it.
  const idle = new Int32Array(new SharedArrayBuffer(4));
  try {
    pruneChanges(new ChangeLog(db), segment.seq, () => Atomics.wait(idle, 0, 0, 5));
  } catch {
    // Busy: the segment is delivered; a later build or an overgrown log prunes again.
  }
} finally {
  db.close();
}
