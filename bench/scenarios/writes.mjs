// Scenario 3: POST /v1/snapshots against a minimal Fastify + better-sqlite3 server that inserts
// one snapshot per request in its own transaction (WAL, synchronous=FULL, the same schema and
// indexes from `snapgraph migrate`). Each server gets a fresh database in every round.
import { join } from 'node:path';
import { postJson } from '../lib/http.mjs';
import { cellsWithRatio, MEASUREMENT_HEADERS, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runInterleaved } from '../lib/rounds.mjs';
import { createBrainSqlite } from '../lib/seed.mjs';
import { prepareDatabase, snapgraphCli, startBaseline, startSnapgraph, tempDir } from '../lib/server.mjs';

export const id = 'writes';

export const SNAPSHOT_BODY = JSON.stringify({
  name: 'Compounding',
  core: 'Small consistent gains compound over time',
  type: 'Principle',
  challenge: 'Most gains do not persist',
  confidence: 0.8,
  tags: ['habits', 'growth'],
});

/** Stops the server, then deletes its database. */
const withDatabaseRemoval = (server, remove) => ({
  ...server,
  stop: async () => {
    await server.stop();
    await remove();
  },
});

export async function run(ctx) {
  const variants = [
    {
      name: 'Snapgraph',
      start: async () => {
        const db = prepareDatabase();
        const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
        await postJson(`${server.base}/v1/snapshots`, SNAPSHOT_BODY, { authorization: `Bearer ${db.key}` });
        return withDatabaseRemoval({ ...server, key: db.key }, db.cleanup);
      },
      ops: [
        {
          op: 'create',
          url: (s) => `${s.base}/v1/snapshots`,
          method: 'POST',
          body: SNAPSHOT_BODY,
          headers: (s) => ({ authorization: `Bearer ${s.key}` }),
        },
      ],
    },
    {
      name: 'one transaction per request',
      start: async () => {
        const { dir, remove } = tempDir();
        const path = join(dir, 'writer.db');
        snapgraphCli(['migrate'], path);
        const { accountId, brainId } = createBrainSqlite(path);
        const server = await startBaseline('fastify-sqlite.mjs', {
          name: 'writer',
          env: { DATABASE_PATH: path, BRAIN_ID: brainId, ACCOUNT_ID: accountId },
        });
        await postJson(`${server.base}/v1/snapshots`, SNAPSHOT_BODY);
        return withDatabaseRemoval(server, remove);
      },
      ops: [{ op: 'create', url: (s) => `${s.base}/v1/snapshots`, method: 'POST', body: SNAPSHOT_BODY }],
    },
  ];
  const samples = await runInterleaved({ scenario: id, ...ctx, variants });
  const snapgraph = samples['Snapgraph|create'];
  const baseline = samples['one transaction per request|create'];
  const vsBaseline = pairedRatio(snapgraph, baseline);
  const rows = [
    ['Snapgraph as shipped', ...cellsWithRatio(snapgraph, '—')],
    ['Fastify + better-sqlite3, one transaction per request', ...cellsWithRatio(baseline, ratio(vsBaseline))],
  ];
  return {
    sections: [
      `## 3. POST /v1/snapshots\n\nA fresh database per server per round; SQLite in WAL with synchronous=FULL on both ` +
        `sides.\n\n${table(['server', MEASUREMENT_HEADERS[0], 'Snapgraph vs it', ...MEASUREMENT_HEADERS.slice(1)], rows)}`,
    ],
    targets: [
      target('3', 'POST vs one transaction per request (req/s)', ratio(vsBaseline), '≥ 3×', vsBaseline.median >= 3),
    ],
  };
}
