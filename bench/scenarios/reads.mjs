// Scenarios 1 and 2: GET /v1/snapshots/:id against the naive Fastify + better-sqlite3 baseline
// and the raw node:http ceiling; GET /v1/snapshots?limit=50 against the naive list; and the
// p99 of GET /v1/edges?brain_id=…&limit=200 — all on one seeded brain, in interleaved rounds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellsWithRatio, MEASUREMENT_HEADERS, range, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runInterleaved } from '../lib/rounds.mjs';
import { seedSqlite } from '../lib/seed.mjs';
import { prepareDatabase, startBaseline, startSnapgraph } from '../lib/server.mjs';
import { summarize } from '../lib/load.mjs';
import { checkSeededTotals, getJson } from '../lib/http.mjs';

export const id = 'reads';

export async function run(ctx) {
  const sizes = { snapshots: 10_000, edges: 30_000 };
  const db = prepareDatabase();
  const seeded = seedSqlite(db.databaseUrl, {
    accountId: db.account_id,
    brainId: db.brain_id,
    ...sizes,
    label: 'reads: seeding',
  });
  const auth = { authorization: `Bearer ${db.key}` };
  const paths = {
    one: `/v1/snapshots/${seeded.sampleId}`,
    list: '/v1/snapshots?limit=50',
    naiveList: `/v1/snapshots?limit=50&brain_id=${db.brain_id}`,
    edges: `/v1/edges?brain_id=${db.brain_id}&limit=200`,
  };

  // The ceiling serves the exact bytes and content-type of Snapgraph's answer.
  const bodyFile = join(db.dir, 'snapshot-response.json');
  let contentType;
  let bodyBytes;
  {
    const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
    try {
      const one = await getJson(`${server.base}${paths.one}`, auth);
      writeFileSync(bodyFile, one.bytes);
      bodyBytes = one.bytes.length;
      contentType = one.contentType;
      await checkSeededTotals(server.base, auth, db.brain_id, sizes);
    } finally {
      await server.stop();
    }
  }

  const naiveEnv = { DATABASE_PATH: db.databaseUrl, BRAIN_ID: db.brain_id, ACCOUNT_ID: db.account_id };
  const variants = [
    {
      name: 'Snapgraph',
      start: () => startSnapgraph({ databaseUrl: db.databaseUrl }),
      ops: [
        { op: 'one', url: (s) => `${s.base}${paths.one}`, headers: auth },
        { op: 'list', url: (s) => `${s.base}${paths.list}`, headers: auth },
        { op: 'edges', url: (s) => `${s.base}${paths.edges}`, headers: auth },
      ],
    },
    {
      name: 'naive',
      start: async () => {
        const server = await startBaseline('fastify-sqlite.mjs', { name: 'naive', env: naiveEnv });
        const one = await getJson(`${server.base}${paths.one}`);
        if (one.json.data.id !== seeded.sampleId) throw new Error('naive baseline returned another snapshot');
        return server;
      },
      ops: [
        { op: 'one', url: (s) => `${s.base}${paths.one}` },
        { op: 'list', url: (s) => `${s.base}${paths.naiveList}` },
      ],
    },
    {
      name: 'ceiling',
      start: () =>
        startBaseline('raw-http.mjs', { name: 'ceiling', env: { BODY_FILE: bodyFile, CONTENT_TYPE: contentType } }),
      ops: [{ op: 'one', url: (s) => `${s.base}${paths.one}` }],
    },
  ];
  const samples = await runInterleaved({ scenario: id, ...ctx, variants });
  db.cleanup();

  const s = (variant, op) => samples[`${variant}|${op}`];
  const vsNaive = pairedRatio(s('Snapgraph', 'one'), s('naive', 'one'));
  const vsCeiling = pairedRatio(s('Snapgraph', 'one'), s('ceiling', 'one'));
  const listVsNaive = pairedRatio(s('Snapgraph', 'list'), s('naive', 'list'));
  const edgesP99 = summarize(s('Snapgraph', 'edges'), 'p99');

  const oneTable = table(
    ['server', ...MEASUREMENT_HEADERS.slice(0, 1), 'Snapgraph vs it', ...MEASUREMENT_HEADERS.slice(1)],
    [
      ['Snapgraph as shipped', ...cellsWithRatio(s('Snapgraph', 'one'), '—')],
      ['naive: Fastify + better-sqlite3, PK lookup', ...cellsWithRatio(s('naive', 'one'), ratio(vsNaive))],
      ['ceiling: node:http, same bytes', ...cellsWithRatio(s('ceiling', 'one'), ratio(vsCeiling))],
    ],
  );
  const listTable = table(
    ['request', 'server', ...MEASUREMENT_HEADERS.slice(0, 1), 'Snapgraph vs it', ...MEASUREMENT_HEADERS.slice(1)],
    [
      ['GET /v1/snapshots?limit=50', 'Snapgraph as shipped', ...cellsWithRatio(s('Snapgraph', 'list'), '—')],
      [
        'same (page + count(*))',
        'naive: Fastify + better-sqlite3',
        ...cellsWithRatio(s('naive', 'list'), ratio(listVsNaive)),
      ],
      ['GET /v1/edges?brain_id=…&limit=200', 'Snapgraph as shipped', ...cellsWithRatio(s('Snapgraph', 'edges'), '—')],
    ],
  );
  return {
    sections: [
      `## 1. GET /v1/snapshots/:id\n\nOne brain of ${sizes.snapshots.toLocaleString('en')} snapshots and ` +
        `${sizes.edges.toLocaleString('en')} edges; the same snapshot (with emotion and tags) from every server. ` +
        `The ceiling's body is ${bodyBytes} bytes, \`${contentType}\`.\n\n${oneTable}`,
      `## 2. Lists\n\nSame brain. Snapgraph lists the key's brain; the naive list runs the same page query and a ` +
        `\`count(*)\`.\n\n${listTable}`,
    ],
    targets: [
      target('1', 'GET one vs naive (req/s)', ratio(vsNaive), '≥ 1.0×', vsNaive.median >= 1.0),
      target('1', 'GET one vs raw ceiling (req/s)', ratio(vsCeiling), '≥ 0.35×', vsCeiling.median >= 0.35),
      target('2', 'list of 50 vs naive list (req/s)', ratio(listVsNaive), '≥ 0.8×', listVsNaive.median >= 0.8),
      target(
        '2',
        'edges limit=200, p99 at 50 connections',
        `${range(edgesP99, 1)} ms`,
        '< 25 ms',
        edgesP99.median < 25,
      ),
    ],
  };
}
