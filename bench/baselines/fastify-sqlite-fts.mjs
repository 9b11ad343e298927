// The text-search baseline: minimal Fastify + better-sqlite3 answering GET /search?q= with the
// 10 best snapshots by FTS5's bm25 over name and core (an index built by lib/fts-baseline.mjs,
// FTS_PATH), joined back to the rows of the Snapgraph database (DATABASE_PATH, read only). No
// graph, no count of all matches, no authentication, rate limits, logging or response schema:
// the ceiling for text search on this machine. MATCH_MODE: "and" (every word) or "or" (any).
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { ftsQuery } from '../lib/fts-baseline.mjs';

const { DATABASE_PATH, FTS_PATH, MATCH_MODE = 'and' } = process.env;
const db = new Database(FTS_PATH, { readonly: true });
db.prepare('ATTACH DATABASE ? AS src').run(DATABASE_PATH);

const top = db.prepare(
  `SELECT s.*, -f.rank AS score
     FROM (SELECT rowid, rank FROM search WHERE search MATCH ? ORDER BY rank LIMIT 10) f
     JOIN src.snapshots s ON s.rowid = f.rowid
    ORDER BY f.rank`,
);

function parsed(row) {
  delete row.account_id;
  row.emotion = row.emotion === null ? null : JSON.parse(row.emotion);
  row.tags = JSON.parse(row.tags);
  return row;
}

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));

app.get('/search', async (request, reply) => {
  const match = ftsQuery(String(request.query.q ?? ''), MATCH_MODE);
  if (match === '') return reply.code(400).send({ error: { code: 'BAD_REQUEST' } });
  return { data: top.all(match).map(parsed) };
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => (db.close(), process.exit(0))));
