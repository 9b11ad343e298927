// The naive baseline on SQLite: minimal Fastify + better-sqlite3 with prepared statements, no
// authentication, no rate limits, no logging, no response schema. Serves the same routes as
// Snapgraph on a Snapgraph database (DATABASE_PATH): GET one by primary key, the newest-first
// list with its count, and a create that inserts one row per request in its own transaction.
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { newSnapshotRow } from '../lib/new-snapshot.mjs';

const { DATABASE_PATH, BRAIN_ID, ACCOUNT_ID } = process.env;
const db = new Database(DATABASE_PATH);
// The settings Snapgraph uses: WAL, and a commit survives power loss (synchronous=FULL).
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

const getOne = db.prepare('SELECT * FROM snapshots WHERE id = ?');
const list = db.prepare('SELECT * FROM snapshots WHERE brain_id = ? ORDER BY created_at DESC, id DESC LIMIT ?');
const count = db.prepare('SELECT count(*) AS n FROM snapshots WHERE brain_id = ?').pluck();
const COLUMNS = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('snapshots');
const insert = db.prepare(
  `INSERT INTO snapshots (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
);

function parsed(row) {
  row.emotion = row.emotion === null ? null : JSON.parse(row.emotion);
  row.tags = JSON.parse(row.tags);
  return row;
}

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));

app.get('/v1/snapshots/:id', async (request, reply) => {
  const row = getOne.get(request.params.id);
  if (!row) return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
  return { data: parsed(row) };
});

app.get('/v1/snapshots', async (request) => {
  const brainId = request.query.brain_id ?? BRAIN_ID;
  const limit = Math.min(Number(request.query.limit ?? 50), 100);
  return { data: list.all(brainId, limit).map(parsed), count: count.get(brainId) };
});

app.post('/v1/snapshots', async (request, reply) => {
  const row = newSnapshotRow(request.body, COLUMNS, { accountId: ACCOUNT_ID, brainId: BRAIN_ID });
  const stored = {
    ...row,
    emotion: row.emotion === null ? null : JSON.stringify(row.emotion),
    tags: JSON.stringify(row.tags),
  };
  insert.run(stored); // autocommit: one transaction, one fsync, per request
  delete row.account_id;
  return reply.code(201).send({ data: row });
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => (db.close(), process.exit(0))));
