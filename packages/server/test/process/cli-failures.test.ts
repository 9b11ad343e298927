// When the machine or the database refuses (a path that cannot hold a database, a server that
// does not answer), the CLI says so in one line and exits 1; bad usage stays exit 2.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { postgresAdminUrl, testBackend } from '../helpers/database.js';
import { assertOneLineExit, runCli, type CliResult } from './helpers/process-harness.js';

describe('snapgraph CLI: failures of the environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapgraph-cli-failures-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const assertOneLine = (result: CliResult, pattern: RegExp) => assertOneLineExit(result, 1, pattern);

  it('a DATABASE_URL under a regular file: one line naming the problem, exit 1', async () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, 'x');
    assertOneLine(await runCli(join(file, 'snapgraph.db'), ['keys', 'list']), /^snapgraph: .*(EEXIST|ENOTDIR)/);
  });

  it('a DATABASE_URL whose directory the file system cannot hold (/proc): one line, exit 1, no spin', async () => {
    // Node 20's recursive mkdir loops forever here; the harness's timeout would fail this test.
    assertOneLine(await runCli('/proc/snapgraph-nope/snapgraph.db', ['migrate']), /^snapgraph: .*ENOENT/);
  });

  it('a PostgreSQL server that does not answer: one line, exit 1', async () => {
    assertOneLine(await runCli('postgres://postgres@127.0.0.1:1/none', ['migrate']), /^snapgraph: .*ECONNREFUSED/);
  });

  it(
    'a PostgreSQL server that refuses the database (it does not exist): one line, exit 1',
    { skip: testBackend !== 'postgres' && 'needs the PostgreSQL server of the PostgreSQL run' },
    async () => {
      const url = new URL(postgresAdminUrl);
      url.pathname = '/snapgraph_no_such_database';
      assertOneLine(
        await runCli(url.href, ['keys', 'list']),
        /^snapgraph: database "snapgraph_no_such_database" does not exist$/,
      );
    },
  );

  it('a database never migrated, with MIGRATE_ON_START=false: one line saying to migrate, exit 1', async () => {
    const result = await runCli(join(dir, 'never-migrated.db'), ['keys', 'list'], undefined, {
      MIGRATE_ON_START: 'false',
    });
    assertOneLine(result, /^snapgraph: no such table: \w+ \(the database is not migrated: run `snapgraph migrate`/);
  });

  it('serve on a port another server holds: one line saying how to pick another port, exit 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = holder.address() as AddressInfo;
      const result = await runCli(join(dir, 'serve.db'), ['serve'], undefined, {
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      assertOneLine(result, new RegExp(`^snapgraph: listen EADDRINUSE: .*:${port} \\(.*\`PORT=8081 npm start\`\\)$`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('a DATABASE_URL of another scheme is refused before any file is made: exit 2', async () => {
    const result = await runCli('postgress://postgres@127.0.0.1:5432/snapgraph', ['keys', 'list']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /^snapgraph: invalid configuration: DATABASE_URL must be postgres:\/\/… .* "postgress" is neither/m,
    );
  });

  it('bad usage is still exit 2', async () => {
    const result = await runCli(join(dir, 'ok.db'), ['keys', 'revoke']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /usage: snapgraph keys revoke/);
  });
});
