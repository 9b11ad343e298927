// Scenario 5 (and what bench/crud.mjs measured): GET one and POST on Snapgraph with
// DATABASE_URL=postgres against a minimal Fastify + `pg` server on the same database, and
// Snapgraph on PostgreSQL against Snapgraph on SQLite, in interleaved rounds.
import { getJson, postJson } from '../lib/http.mjs';
import { createBenchDatabase, postgresAnswers } from '../lib/postgres.mjs';
import { cellsWithRatio, MEASUREMENT_HEADERS, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runInterleaved } from '../lib/rounds.mjs';
import { seedPostgres, seedSqlite } from '../lib/seed.mjs';
import { prepareDatabase, startBaseline, startSnapgraph } from '../lib/server.mjs';
import { SNAPSHOT_BODY } from './writes.mjs';

export const id = 'postgres';
const SIZES = { snapshots: 10_000, edges: 30_000 };

export async function run(ctx) {
  if (!(await postgresAnswers())) {
    console.error(`[${id}] NOTICE: PostgreSQL does not answer; scenario 5 skipped`);
    return {
      sections: ['## 5. PostgreSQL\n\nSkipped: PostgreSQL did not answer (set SNAPGRAPH_BENCH_POSTGRES_URL).'],
      targets: [target('5', 'PostgreSQL vs Fastify + pg', '—', '—', null, 'PostgreSQL not reachable')],
    };
  }
  const database = await createBenchDatabase();
  const pgDb = prepareDatabase({ databaseUrl: database.url });
  const pgSeed = await seedPostgres(database.url, {
    accountId: pgDb.account_id,
    brainId: pgDb.brain_id,
    ...SIZES,
    label: 'postgres: seeding',
  });
  const liteDb = prepareDatabase();
  const liteSeed = seedSqlite(liteDb.databaseUrl, {
    accountId: liteDb.account_id,
    brainId: liteDb.brain_id,
    ...SIZES,
    label: 'postgres: seeding the SQLite comparison',
  });

  const snapgraphOps = (db, sampleId) => {
    const headers = { authorization: `Bearer ${db.key}` };
    return [
      { op: 'GET one', url: (s) => `${s.base}/v1/snapshots/${sampleId}`, headers },
      { op: 'POST', url: (s) => `${s.base}/v1/snapshots`, method: 'POST', body: SNAPSHOT_BODY, headers },
    ];
  };
  const variants = [
    {
      name: 'Snapgraph on SQLite',
      start: () => startSnapgraph({ databaseUrl: liteDb.databaseUrl }),
      ops: snapgraphOps(liteDb, liteSeed.sampleId),
    },
    {
      name: 'Snapgraph on PostgreSQL',
      start: () => startSnapgraph({ databaseUrl: pgDb.databaseUrl }),
      ops: snapgraphOps(pgDb, pgSeed.sampleId),
    },
    {
      name: 'Fastify + pg',
      start: async () => {
        const server = await startBaseline('fastify-pg.mjs', {
          name: 'Fastify + pg',
          env: { DATABASE_URL: database.url, BRAIN_ID: pgDb.brain_id, ACCOUNT_ID: pgDb.account_id },
        });
        const one = await getJson(`${server.base}/v1/snapshots/${pgSeed.sampleId}`);
        if (one.json.data.id !== pgSeed.sampleId) throw new Error('Fastify + pg returned another snapshot');
        await postJson(`${server.base}/v1/snapshots`, SNAPSHOT_BODY);
        return server;
      },
      ops: [
        { op: 'GET one', url: (s) => `${s.base}/v1/snapshots/${pgSeed.sampleId}` },
        { op: 'POST', url: (s) => `${s.base}/v1/snapshots`, method: 'POST', body: SNAPSHOT_BODY },
      ],
    },
    {
      // The driver choice: the same minimal server through postgres.js instead of pg.
      name: 'Fastify + postgres.js',
      start: async () => {
        const server = await startBaseline('fastify-postgresjs.mjs', {
          name: 'Fastify + postgres.js',
          env: { DATABASE_URL: database.url },
        });
        const one = await getJson(`${server.base}/v1/snapshots/${pgSeed.sampleId}`);
        if (one.json.data.id !== pgSeed.sampleId) throw new Error('Fastify + postgres.js returned another snapshot');
        return server;
      },
      ops: [{ op: 'GET one', url: (s) => `${s.base}/v1/snapshots/${pgSeed.sampleId}` }],
    },
  ];
  const samples = await runInterleaved({ scenario: id, ...ctx, variants });
  liteDb.cleanup();
  await database.drop();

  const s = (variant, op) => samples[`${variant}|${op}`];
  const rows = [];
  const targets = [];
  for (const op of ['GET one', 'POST']) {
    const pgSnapgraph = s('Snapgraph on PostgreSQL', op);
    const vsBaseline = pairedRatio(pgSnapgraph, s('Fastify + pg', op));
    const vsSqlite = pairedRatio(pgSnapgraph, s('Snapgraph on SQLite', op));
    rows.push(
      [op, 'Snapgraph on PostgreSQL', ...cellsWithRatio(pgSnapgraph, '—')],
      [op, 'Fastify + pg', ...cellsWithRatio(s('Fastify + pg', op), ratio(vsBaseline))],
      [op, 'Snapgraph on SQLite', ...cellsWithRatio(s('Snapgraph on SQLite', op), ratio(vsSqlite))],
    );
    targets.push(target('5', `PostgreSQL ${op} vs Fastify + pg`, ratio(vsBaseline), '—', undefined));
    targets.push(target('5', `PostgreSQL ${op} vs Snapgraph on SQLite`, ratio(vsSqlite), '—', undefined));
  }
  const driver = pairedRatio(s('Fastify + postgres.js', 'GET one'), s('Fastify + pg', 'GET one'));
  rows.push(['GET one', 'Fastify + postgres.js', ...cellsWithRatio(s('Fastify + postgres.js', 'GET one'), '—')]);
  targets.push(target('6', 'driver: postgres.js vs pg, GET one (same minimal server)', ratio(driver), '—', undefined));
  const opName = { 'GET one': 'GET /v1/snapshots/:id', POST: 'POST /v1/snapshots' };
  return {
    sections: [
      `## 5. PostgreSQL\n\nA fresh PostgreSQL database of ${SIZES.snapshots.toLocaleString('en')} snapshots and ` +
        `${SIZES.edges.toLocaleString('en')} edges, pool of 10 on both servers; the SQLite comparison has the same ` +
        `rows.\n\n` +
        table(
          [
            'operation',
            'server',
            MEASUREMENT_HEADERS[0],
            'Snapgraph on PostgreSQL vs it',
            ...MEASUREMENT_HEADERS.slice(1),
          ],
          rows.map(([op, ...rest]) => [opName[op], ...rest]),
        ),
    ],
    targets,
  };
}
