import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildApp } from '../../src/app.js';

/** The web explorer's routes at /, with and without a build (packages/web/dist), beside the API. */
async function appWithWebRoot(webRoot: string) {
  const dir = mkdtempSync(join(tmpdir(), 'snapgraph-web-'));
  const app = await buildApp({
    config: {
      databaseUrl: join(dir, 'test.db'),
      logLevel: 'silent',
      migrateOnStart: true,
      rateLimits: false,
      backgroundWork: false,
    },
    webRoot,
  });
  return {
    app,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('without a build, / answers a plain page that says how to build it', async (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'snapgraph-no-web-'));
  const { app, close } = await appWithWebRoot(empty);
  t.after(async () => {
    await close();
    rmSync(empty, { recursive: true, force: true });
  });
  const page = await app.inject({ method: 'GET', url: '/' });
  assert.equal(page.statusCode, 200);
  assert.match(page.headers['content-type'] as string, /^text\/html/);
  assert.match(page.body, /npm run build/);
  assert.equal(
    (await app.inject({ method: 'GET', url: '/v1/snapshots' })).statusCode,
    401,
    'the API still needs a key',
  );
});

test('with a build, index.html is revalidated, hashed assets are immutable, and the API keeps its answers', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'snapgraph-web-build-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><title>explorer</title><script src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  const { app, close } = await appWithWebRoot(root);
  t.after(async () => {
    await close();
    rmSync(root, { recursive: true, force: true });
  });
  const index = await app.inject({ method: 'GET', url: '/' });
  assert.equal(index.statusCode, 200);
  assert.equal(index.headers['cache-control'], 'no-cache');
  assert.match(index.body, /explorer/);
  const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
  assert.equal(asset.statusCode, 200);
  assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(asset.headers['content-type'] as string, /javascript/);
  assert.equal((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode, 404);
  assert.equal((await app.inject({ method: 'GET', url: '/assets/../../etc/passwd' })).statusCode, 404);
  assert.equal((await app.inject({ method: 'POST', url: '/' })).statusCode, 405);
  assert.equal((await app.inject({ method: 'GET', url: '/v1/nothing' })).statusCode, 401);
  assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
});
