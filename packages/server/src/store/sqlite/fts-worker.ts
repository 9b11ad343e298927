// Answers FTS5 text queries of large brains on a connection of its own, off the event loop that
// answers requests: see OffThreadFts. Messages are handled one at a time, in order.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { Fts5Search } from './fts-search.js';
import type { FtsAnswer, FtsRequest } from './off-thread-fts.js';

const { path } = workerData as { path: string };
const db = new Database(path, { readonly: true });
// A writer holding the lock (a checkpoint) is waited for, as the request thread waits.
db.pragma('busy_timeout = 5000');
const fts = new Fts5Search(db);

parentPort?.on('message', (request: FtsRequest) => {
  if ('close' in request) {
    db.close();
    parentPort?.close();
    return;
  }
  let answer: FtsAnswer;
  try {
    answer =
      request.kind === 'rank'
        ? { id: request.id, ranked: fts.rank(request.scope, request.query, request.limit) }
        : { id: request.id, ids: fts.matchingIn(request.scope, request.query, request.ids) };
  } catch (error) {
    const { message, name, code } = error as Error & { code?: string };
    answer = { id: request.id, error: { message: String(message), name, code } };
  }
  parentPort?.postMessage(answer);
});
