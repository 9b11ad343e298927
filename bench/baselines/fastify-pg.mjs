// The naive baseline on PostgreSQL: minimal Fastify + `pg` (a pool of DATABASE_POOL_MAX, named
// prepared statements), no authentication, rate limits or logging, against a Snapgraph
// database (DATABASE_URL): GET one by primary key, the newest-first list with its count, and a
// create of one row per request (autocommit).
import Fastify from 'fastify';
import pg from 'pg';
import { newSnapshotRow } from '../lib/new-snapshot.mjs';

const { DATABASE_URL, BRAIN_ID, ACCOUNT_ID } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
pool.on('error', () => undefined);

const COLUMNS = (
  await pool.query(
    // Generated columns (the search index's tsvector) are the database's to fill.
    `SELECT column_name FROM information_schema.columns
     WHERE table_name = 'snapshots' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
  )
).rows.map((r) => r.column_name);
const insertSql = `INSERT INTO snapshots (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));

app.get('/v1/snapshots/:id', async (request, reply) => {
  const { rows } = await pool.query({
    name: 'get',
    text: 'SELECT * FROM snapshots WHERE id = $1',
    values: [request.params.id],
  });
  if (rows.length === 0) return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
  return { data: rows[0] };
});

app.get('/v1/snapshots', async (request) => {
  const brainId = request.query.brain_id ?? BRAIN_ID;
  const limit = Math.min(Number(request.query.limit ?? 50), 100);
  const [page, total] = await Promise.all([
    pool.query({
      name: 'list',
      text: 'SELECT * FROM snapshots WHERE brain_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2',
      values: [brainId, limit],
    }),
    pool.query({
      name: 'count',
      text: 'SELECT count(*)::int AS n FROM snapshots WHERE brain_id = $1',
      values: [brainId],
    }),
  ]);
  return { data: page.rows, count: total.rows[0].n };
});

app.post('/v1/snapshots', async (request, reply) => {
  const row = newSnapshotRow(request.body, COLUMNS, { accountId: ACCOUNT_ID, brainId: BRAIN_ID });
  const values = COLUMNS.map((c) =>
    (c === 'emotion' || c === 'tags') && row[c] !== null ? JSON.stringify(row[c]) : row[c],
  );
  await pool.query({ name: 'insert', text: insertSql, values });
  delete row.account_id;
  return reply.code(201).send({ data: row });
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
