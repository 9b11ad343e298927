// Writes a large run (KnowledgeWrite) in slices (writeInSlices) on a connection of its own, off
// the event loop that answers requests: see OffThreadWrites.
import { parentPort, workerData } from 'node:worker_threads';
import type { KnowledgeWrite } from '../knowledge-store.js';
import { GroupCommit } from './group-commit.js';
import { SqliteKnowledgeStore } from './knowledge.js';
import type { WriteAnswer, WriteRequest } from './knowledge-write-messages.js';
import { openSqliteDatabase, type SqliteOptions } from './open-database.js';
import { writeInSlices } from './sliced-writes.js';

const { path, options } = workerData as { path: string; options: SqliteOptions };
const db = openSqliteDatabase(path, options);
const store = new SqliteKnowledgeStore(db, new GroupCommit(db));

parentPort?.on('message', (request: WriteRequest) => {
  if ('close' in request) {
    db.close();
    parentPort?.close();
    return;
  }
  writeInSlices(db, store, request.accountId, JSON.parse(request.writeJson) as KnowledgeWrite).then(
    ({ edges }) => parentPort?.postMessage({ id: request.id, edges } satisfies WriteAnswer),
    (error: Error & { code?: string }) =>
      parentPort?.postMessage({
        id: request.id,
        error: { message: String(error?.message ?? error), name: error?.name ?? 'Error', code: error?.code },
      } satisfies WriteAnswer),
  );
});
