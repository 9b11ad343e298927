// Scale-out: two stateless server processes on two ports, sharing one PostgreSQL database and
// one Redis. Runs in the PostgreSQL pass of the suite (npm test runs it when PostgreSQL
// answers, and always under CI).
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { testBackend } from '../helpers/database.js';
import {
  call,
  createKeyViaCli,
  makeWorkspace,
  startServer,
  stopAllServers,
  unlimitedKey,
  type CreatedKey,
  type ServerProcess,
  type Workspace,
} from '../process/helpers/process-harness.js';
import { DEFAULT_REDIS_URL, redisReachable, skipOrFailWithoutRedis } from '../ratelimit/support.js';

describe('two instances on one PostgreSQL and one Redis', { skip: testBackend !== 'postgres' }, () => {
  let workspace: Workspace;
  let servers: [ServerProcess, ServerProcess];
  let owner: CreatedKey;
  let redisUp = false;

  before(async () => {
    redisUp = await redisReachable(DEFAULT_REDIS_URL);
    if (!redisUp) return;
    workspace = await makeWorkspace('scale-out');
    owner = await unlimitedKey(workspace.databasePath); // also applies the migrations, once
    const env = { REDIS_URL: DEFAULT_REDIS_URL, MIGRATE_ON_START: 'false' };
    servers = [await startServer(workspace.databasePath, { env }), await startServer(workspace.databasePath, { env })];
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  const requireRedis = (t: TestContext) => {
    if (!redisUp) skipOrFailWithoutRedis(t, `no Redis at ${DEFAULT_REDIS_URL}`);
    return redisUp;
  };

  it('both report the database and Redis ready', async (t) => {
    if (!requireRedis(t)) return;
    for (const server of servers) {
      const ready = await call(server.baseUrl, 'GET', '/readyz');
      assert.equal(ready.status, 200);
      assert.deepEqual(ready.body, { status: 'ok', checks: { database: 'ok', redis: 'ok' } });
    }
  });

  it('a snapshot written through one is read, updated and deleted through the other', async (t) => {
    if (!requireRedis(t)) return;
    const [a, b] = servers;
    const created = await call(a.baseUrl, 'POST', '/v1/snapshots', {
      key: owner.key,
      body: { name: 'Shared', core: 'Written on A', tags: ['x'] },
    });
    assert.equal(created.status, 201);
    const read = await call(b.baseUrl, 'GET', `/v1/snapshots/${created.body.data.id}`, { key: owner.key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, created.body);

    const updated = await call(b.baseUrl, 'PUT', `/v1/snapshots/${created.body.data.id}`, {
      key: owner.key,
      body: { core: 'Changed on B' },
    });
    assert.equal(updated.status, 200);
    const again = await call(a.baseUrl, 'GET', `/v1/snapshots/${created.body.data.id}`, { key: owner.key });
    assert.equal(again.body.data.core, 'Changed on B');
    assert.ok(again.body.data.updated_at > created.body.data.updated_at);

    assert.equal(
      (await call(a.baseUrl, 'DELETE', `/v1/snapshots/${created.body.data.id}`, { key: owner.key })).status,
      200,
    );
    assert.equal(
      (await call(b.baseUrl, 'GET', `/v1/snapshots/${created.body.data.id}`, { key: owner.key })).status,
      404,
    );
  });

  it('duplicate edge creates racing across the instances give exactly one 201', async (t) => {
    if (!requireRedis(t)) return;
    const [a, b] = servers;
    const make = async (name: string) =>
      (await call(a.baseUrl, 'POST', '/v1/snapshots', { key: owner.key, body: { name, core: name } })).body.data.id;
    const source = await make('source');
    const target = await make('target');
    for (const [edgeType, reverse] of [
      ['supports', false],
      ['related_to', true],
    ] as const) {
      const attempts = Array.from({ length: 16 }, (_, i) => {
        const server = servers[i % 2] as ServerProcess;
        // For related_to, half the racers send the pair reversed: it is the same edge.
        const flip = reverse && i % 4 >= 2;
        return call(server.baseUrl, 'POST', '/v1/edges', {
          key: owner.key,
          body: { source_id: flip ? target : source, target_id: flip ? source : target, edge_type: edgeType },
        });
      });
      const statuses = (await Promise.all(attempts)).map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, ...Array(15).fill(409)], `${edgeType}: ${statuses.join(',')}`);
      const listed = await call(b.baseUrl, 'GET', `/v1/edges?snapshot_id=${source}&edge_type=${edgeType}`, {
        key: owner.key,
      });
      assert.equal(listed.body.total, 1);
    }
  });

  it("one key's rate limit is shared: the two together never exceed it", async (t) => {
    if (!requireRedis(t)) return;
    // Enterprise 12/min, burst 100: the minute limit binds, whatever the split between instances.
    const limited = await createKeyViaCli(workspace.databasePath, [
      '--plan',
      'enterprise',
      '--rpm',
      '12',
      '--burst',
      '100',
    ]);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call((servers[i % 2] as ServerProcess).baseUrl, 'GET', '/v1/snapshots', { key: limited.key }),
      ),
    );
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(admitted.length, 12, `admitted ${admitted.length}`);
    assert.equal(refused.length, 28);
    const remaining = admitted.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
    assert.deepEqual(
      remaining,
      Array.from({ length: 12 }, (_, i) => i),
      'each admission counted once, across both',
    );
    // Each instance was asked 20 times: separate windows would have admitted up to 24.
  });
});
