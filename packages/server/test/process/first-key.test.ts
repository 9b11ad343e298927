// The first hour of a new user (design §16): the server started on a database that is not the
// CLI's default prints where everything is and the exact command that makes a key for it; that
// command, run as printed, makes a key this server accepts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { testBackend } from '../helpers/database.js';
import { call, SERVER_ROOT, startServer, suiteWorkspaces } from './helpers/process-harness.js';

const shell = promisify(execFile);

describe('start banner and the first key', () => {
  const fresh = suiteWorkspaces();

  it('prints the API, explorer, docs, database, extractor and embeddings, and a key command that works as printed', async () => {
    const workspace = await fresh('first-key');
    const server = await startServer(workspace.databasePath, { env: { LOG_LEVEL: 'info', LOG_FORMAT: 'json' } });
    await server.printed(/npx snapgraph keys create/);
    const banner = server.stderr();
    const base = server.baseUrl;
    assert.match(banner, new RegExp(`API: +${base}/v1\\n`));
    assert.match(banner, new RegExp(`Explorer: +${base}/ `));
    assert.match(banner, new RegExp(`API docs: +${base}/v1/docs\\n`));
    if (testBackend === 'sqlite') assert.match(banner, new RegExp(`Database: +${workspace.databasePath}\\n`));
    else assert.match(banner, /Database: +PostgreSQL database \S+ on 127\.0\.0\.1:5432\n/);
    assert.match(banner, /^database: \S/m, 'serve says which database it opened, as every command does');
    assert.match(banner, /Extractor: +built-in/);
    assert.match(banner, /Embeddings: +off/);
    assert.equal(banner.match(/No API key/g)?.length, 1, 'said once');

    // The command, exactly as printed, from where a user runs `npm start` (a shell, the repository).
    const command = /^ {2}(DATABASE_URL=\S+ npx snapgraph keys create)$/m.exec(banner)?.[1];
    assert.ok(command, `a command naming this server's database:\n${banner}`);
    const made = await shell('sh', ['-c', command], { cwd: SERVER_ROOT, env: { ...process.env, DATABASE_URL: '' } });
    assert.match(made.stderr, /^database: /m, 'the CLI says which database it opened');
    const key = /sg_[0-9A-Za-z]+/.exec(made.stdout)?.[0];
    assert.ok(key, made.stdout);
    const created = await call(base, 'POST', '/v1/snapshots', {
      key,
      body: { name: 'First', core: 'The first request works' },
    });
    assert.equal(created.status, 201, created.text);
    const found = await call(base, 'GET', '/v1/snapshots/search?q=first', { key });
    assert.equal(found.status, 200);
    assert.equal(found.body.data[0]?.id, created.body.data.id);

    // The log has the same facts, one event, and no password anywhere. The log is written in
    // batches: on a busy machine the event may come after the banner and the requests above.
    await server.printed(/"docs":"/);
    const started = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((event) => event.docs !== undefined);
    assert.equal(started?.docs, `${base}/v1/docs`);
    assert.equal(started?.explorer, `${base}/`);
    assert.match(String(started?.database), testBackend === 'sqlite' ? /snapgraph\.db$/ : /^PostgreSQL/);
    await server.stop();

    // With a key, no advice.
    const again = await startServer(workspace.databasePath);
    await again.printed(/Embeddings:/);
    assert.doesNotMatch(again.stderr(), /No API key|keys create/);
    await again.stop();
  });
});
