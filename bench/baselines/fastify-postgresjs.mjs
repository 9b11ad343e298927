// The driver comparison's other side: the same minimal Fastify server as fastify-pg.mjs, GET
// one by primary key, through the `postgres` driver (postgres.js) instead of `pg`: a pool of
// DATABASE_POOL_MAX, prepared statements, no authentication, rate limits or logging.
import Fastify from 'fastify';
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL, {
  max: Number(process.env.DATABASE_POOL_MAX ?? 10),
  prepare: true,
  onnotice: () => undefined,
});

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));

app.get('/v1/snapshots/:id', async (request, reply) => {
  const rows = await sql`SELECT * FROM snapshots WHERE id = ${request.params.id}`;
  if (rows.length === 0) return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
  return { data: rows[0] };
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => sql.end())
    .then(() => process.exit(0)),
);
