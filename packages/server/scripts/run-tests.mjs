// Runs every *.test.ts under test/ with node's test runner, TypeScript loaded through tsx
// (Node 20's runner cannot glob by itself): once on SQLite, then once more on PostgreSQL.
// The PostgreSQL run is skipped with a visible notice when no server answers — except under
// CI, where it is mandatory. Arguments (test files, runner flags) pass through, and then only
// the backend in SNAPGRAPH_TEST_BACKEND (default sqlite) runs.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const postgresAdminUrl = process.env.SNAPGRAPH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function run(backend, args, files) {
  console.log(`\n=== test suite on ${backend} ===\n`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...args, ...files],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', SNAPGRAPH_TEST_BACKEND: backend },
    },
  );
  return result.status ?? 1;
}

const args = process.argv.slice(2);
if (args.some((a) => !a.startsWith('-'))) {
  process.exit(run(process.env.SNAPGRAPH_TEST_BACKEND ?? 'sqlite', args, []));
}
const files = findTests(join(root, 'test')).sort();
const backends = ['sqlite'];
if (await postgresAnswers()) backends.push('postgres');
else if (process.env.CI) {
  console.error(`PostgreSQL does not answer at ${postgresAdminUrl}: the PostgreSQL run is mandatory in CI.`);
  process.exit(1);
} else {
  console.warn(`\n*** NOTICE: PostgreSQL does not answer at ${postgresAdminUrl}: the PostgreSQL run is SKIPPED. ***\n`);
}
let failed = 0;
for (const backend of backends) if (run(backend, args, files) !== 0) failed++;
process.exit(failed > 0 ? 1 : 0);
