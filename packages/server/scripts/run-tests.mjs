// Runs every *.test.ts under test/ with node's test runner, TypeScript loaded through tsx
// (Node 20's runner cannot glob by itself): once on SQLite and once on PostgreSQL, the two at
// the same time — they share nothing (a temporary directory, or a fresh database, per test) and
// spend much of their time waiting on subprocesses and databases. Each backend's output is
// gathered and printed whole when it finishes, then a summary of both; the exit code is 1 if
// either failed.
//
// The PostgreSQL run is skipped with a visible notice when no server answers — except under
// CI, where it is mandatory. Arguments (test files, runner flags) pass through, and then only
// the backend in SNAPGRAPH_TEST_BACKEND (default sqlite) runs, its output streamed.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('..', import.meta.url));
const postgresAdminUrl = process.env.SNAPGRAPH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * How long one test file may run before it counts as hung. Not a judgement of speed: files
 * take a few seconds on a quiet machine and several times that on a busy one; this is only
 * there so that a hang fails the run, with output, instead of stalling it.
 */
const FILE_HANG_GUARD_MS = Number(process.env.SNAPGRAPH_TEST_FILE_HANG_GUARD_MS ?? 30 * 60_000);

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 60_000 });
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

/** The node:test command line for one backend; `gathered` pipes its output instead of sharing ours. */
function runSuite(backend, args, files, { gathered }) {
  const startedAt = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      `--test-timeout=${FILE_HANG_GUARD_MS}`,
      '--test-reporter=spec',
      ...args,
      ...files,
    ],
    {
      cwd: root,
      stdio: gathered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: {
        ...process.env,
        // Colours survive the pipe when they would have reached a terminal.
        ...(gathered && process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
        SNAPGRAPH_TEST_BACKEND: backend,
      },
    },
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.once('error', (err) => {
      output += `\ncould not start the test runner: ${err.message}\n`;
    });
    child.once('close', (code, signal) =>
      resolve({ backend, code: code ?? 1, signal, output, seconds: Math.round((Date.now() - startedAt) / 1000) }),
    );
  });
}

// Closing lines of the spec reporter: `ℹ tests 1660`, `ℹ pass 1660`, `ℹ fail 0`, … (`# pass N`
// in TAP), and the names under its "failing tests" heading.
const TALLY = /^(?:ℹ|#) (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;
// eslint-disable-next-line no-control-regex -- colour codes are control characters
const plain = (line) => line.replace(/\x1b\[[0-9;]*m/g, '');

function summary(result) {
  const lines = result.output.split('\n').map(plain);
  const tally = lines.filter((line) => TALLY.test(line));
  const failingAt = lines.indexOf('✖ failing tests:');
  const failing = failingAt < 0 ? [] : lines.slice(failingAt + 1).filter((line) => line.startsWith('✖ '));
  const verdict = result.code === 0 ? 'passed' : `FAILED (exit ${result.signal ?? result.code})`;
  return [`--- ${result.backend}: ${verdict} in ${result.seconds} s`, ...tally, ...failing].join('\n');
}

const args = process.argv.slice(2);
if (args.some((a) => !a.startsWith('-'))) {
  const backend = process.env.SNAPGRAPH_TEST_BACKEND ?? 'sqlite';
  console.log(`\n=== test suite on ${backend} ===\n`);
  const result = await runSuite(backend, args, [], { gathered: false });
  process.exit(result.code);
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

console.log(
  `Running ${files.length} test files on ${backends.join(' and ')} at the same time; ` +
    'each backend’s output is printed whole when it finishes.',
);
const results = await Promise.all(
  backends.map((backend) =>
    runSuite(backend, args, files, { gathered: true }).then((result) => {
      console.log(`\n=== test suite on ${backend} ===\n`);
      process.stdout.write(result.output);
      return result;
    }),
  ),
);
console.log(`\n=== summary ===\n\n${results.map(summary).join('\n\n')}\n`);
// exitCode, not exit(): the whole output must reach a pipe before the process ends (a CI log
// once lost the PostgreSQL run's end and the summary to an exit() right after a large write).
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
