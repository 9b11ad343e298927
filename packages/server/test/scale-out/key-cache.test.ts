// The PostgreSQL key cache: instances share a database, so a key changed through one must stop
// working on every other, and a cache that may have missed a change must not answer at all.
// Runs in the PostgreSQL pass of the suite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { revokeApiKey, updateApiKeyLimits } from '../../src/domain/keys/index.js';
import { KEY_LISTENER_NAME } from '../../src/store/postgres/key-cache.js';
import { testBackend } from '../helpers/database.js';
import { HANG_GUARD_MS } from '../helpers/hang-guard.js';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const LISTEN = 'LISTEN snapgraph_api_keys';

/**
 * Polls `check` until it holds. A change reaches the other instances in about a millisecond on
 * a quiet machine (docs/deployment.md); how soon on this one is not what is tested here, but
 * that it arrives by the notification alone: without one, a cache keeps the old key forever
 * and this fails at the hang guard.
 */
async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + HANG_GUARD_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('API keys cached on PostgreSQL', { skip: testBackend !== 'postgres' }, () => {
  let first: TestApi;
  let second: Awaited<ReturnType<typeof connectTestApi>>;
  let sql: pg.Client;

  before(async () => {
    first = await startTestApi();
    second = await connectTestApi(first.databasePath);
    sql = new pg.Client({ connectionString: first.databasePath });
    await sql.connect();
  });
  after(async () => {
    await sql?.end();
    await second?.close();
    await first?.close();
  });

  const status = async (api: Pick<TestApi, 'request'>, key: TestKey) =>
    (await api.request('GET', '/v1/snapshots?limit=1', { key })).status;

  /**
   * Connections of this database that are listening for key changes (one per application): the
   * listener's connection once its LISTEN has run, which its heartbeat (`SELECT 1` every 5 s)
   * then follows; on a busy machine a test outlives one.
   */
  const listeners = async () =>
    (
      await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = $1 AND query IN ($2, 'SELECT 1')`,
        [KEY_LISTENER_NAME, LISTEN],
      )
    ).rows[0]?.n ?? 0;

  /** A key both applications have just served (so both may hold it in their caches). */
  async function servedKey(): Promise<TestKey> {
    const key = await first.newKey({ plan: 'pro' });
    assert.equal(await status(first, key), 200);
    assert.equal(await status(second, key), 200);
    await waitFor('both applications to listen', async () => (await listeners()) >= 2);
    // Served again now that both listen: from here on the key may come from a cache.
    assert.equal(await status(first, key), 200);
    assert.equal(await status(second, key), 200);
    return key;
  }

  it('a key revoked through one instance gets 401 from that instance at once', async () => {
    const key = await servedKey();
    await revokeApiKey(first.app.domain, key.keyId);
    assert.equal(await status(first, key), 401);
  });

  it('a key revoked through one instance gets 401 from the other as soon as the notification lands', async () => {
    const key = await servedKey();
    await revokeApiKey(second.app.domain, key.keyId);
    await waitFor('the other instance to refuse the revoked key', async () => (await status(first, key)) === 401);
  });

  it('a key changed by plain SQL (another tool, the CLI) is seen too: the trigger notifies', async () => {
    const key = await servedKey();
    await sql.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.keyId]);
    await waitFor('both instances to refuse the revoked key', async () => {
      return (await status(first, key)) === 401 && (await status(second, key)) === 401;
    });
  });

  it('an enterprise limit changed on one instance applies on the other', async () => {
    const key = await first.newKey({ plan: 'enterprise', rpm: 1000, burst: 100 });
    const limited = await connectTestApi(first.databasePath, { rateLimits: true });
    try {
      const limitOf = async () =>
        (await limited.request('GET', '/v1/snapshots?limit=1', { key })).headers['x-ratelimit-limit'];
      assert.equal(await limitOf(), '1000');
      await waitFor('the limited application to listen', async () => (await listeners()) >= 3);
      assert.equal(await limitOf(), '1000');
      await updateApiKeyLimits(second.app.domain, key.keyId, { rpm: 2000 });
      await waitFor('the new limit', async () => (await limitOf()) === '2000');
    } finally {
      await limited.close();
    }
  });

  it('while the listening connection is down nothing is served from the cache, and caching resumes', async () => {
    const key = await servedKey();
    await sql.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
      [KEY_LISTENER_NAME],
    );
    // Served while no instance listens (nothing may be kept), then changed: the change's
    // notification reaches nobody.
    assert.equal(await status(first, key), 200);
    assert.equal(await status(second, key), 200);
    await sql.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.keyId]);
    assert.equal(await status(first, key), 401, 'served a revoked key from a cache that could not know');
    assert.equal(await status(second, key), 401, 'served a revoked key from a cache that could not know');

    await waitFor('both applications to listen again', async () => (await listeners()) >= 2);
    const next = await servedKey();
    await revokeApiKey(second.app.domain, next.keyId);
    await waitFor('the revocation to reach the other instance', async () => (await status(first, next)) === 401);
  });
});
