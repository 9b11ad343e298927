// The naive baseline for POST /v1/memories on SQLite: minimal Fastify + better-sqlite3 with a
// prepared insert, no authentication, no rate limits, no logging, no response schema, one row
// per request in its own transaction, on a Snapgraph database (DATABASE_PATH, so the same table,
// indexes and full-text triggers).
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { isoTime } from '../../packages/server/dist/clock.js';
import { newId } from '../../packages/server/dist/ids.js';

const { DATABASE_PATH, BRAIN_ID, ACCOUNT_ID } = process.env;
const db = new Database(DATABASE_PATH);
// The settings Snapgraph uses: WAL, and a commit survives power loss (synchronous=FULL).
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');

const COLUMNS = [
  'id',
  'account_id',
  'brain_id',
  'content',
  'memory_type',
  'speaker',
  'tags',
  'source_emotion',
  'emotional_valence',
  'emotional_intensity',
  'promoted_to',
  'created_at',
  'updated_at',
];
const insert = db.prepare(
  `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`,
);

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));

app.post('/v1/memories', async (request, reply) => {
  const input = request.body;
  const now = Date.now();
  const at = isoTime(now);
  const row = {
    id: newId('mem', now),
    account_id: ACCOUNT_ID,
    brain_id: BRAIN_ID,
    content: input.content,
    memory_type: input.memory_type ?? 'fact',
    speaker: input.speaker ?? null,
    tags: input.tags ?? [],
    source_emotion: input.source_emotion ?? null,
    emotional_valence: input.emotional_valence ?? null,
    emotional_intensity: input.emotional_intensity ?? null,
    promoted_to: null,
    created_at: at,
    updated_at: at,
  };
  insert.run({ ...row, tags: JSON.stringify(row.tags) }); // autocommit: one transaction, one fsync, per request
  delete row.account_id;
  return reply.code(201).send({ data: row });
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => (db.close(), process.exit(0))));
