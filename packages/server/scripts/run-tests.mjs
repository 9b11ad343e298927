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
//
// The slowest files start first (SLOW_FIRST), and the summary ends with each backend's slowest
// files (SNAPGRAPH_TEST_FILE_TIMES=dir keeps the whole table): docs/performance.md, "Test suite
// time".
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/**
 * Files that take longest, started first: node --test starts files in the order given, so a
 * long file started last would run alone at the end with a core idle. Slowest first, as
 * measured by the per-file times this script prints (docs/performance.md, "Test suite time");
 * the rest follow in name order. A name here that no longer exists is ignored.
 */
const SLOW_FIRST = [
  'test/compute/pool-limits.test.ts',
  'test/compute/heavy-text.test.ts',
  'test/process/shutdown.test.ts',
  'test/process/cli-transfer.test.ts',
  'test/process/jobs.test.ts',
  'test/process/crash.test.ts',
  'test/http/auth-matrix.test.ts',
  'test/process/cli-crystallize.test.ts',
  'test/http/fast-path.test.ts',
  'test/transfer/export-import.test.ts',
  'test/search/text-index.test.ts',
  'test/process/http.test.ts',
  'test/process/cli.test.ts',
];

/**
 * Files whose every test is for one backend only (their suites say `skip` on the other): the
 * other backend's run leaves them out rather than load them only to skip them.
 */
const ONE_BACKEND_ONLY = {
  'test/search/text-index.test.ts': 'sqlite',
  'test/compute/pool-limits.test.ts': 'sqlite',
  // The same on either store, and among the slowest files: run once to keep CI within its time.
  'test/compute/heavy-text.test.ts': 'sqlite',
  'test/process/cli-usage.test.ts': 'sqlite',
  'test/http/auth-matrix.test.ts': 'sqlite',
  'test/http/openapi-tools.test.ts': 'sqlite',
  'test/http/versioning-and-docs.test.ts': 'sqlite',
  'test/http/request-id.test.ts': 'sqlite',
  'test/process/request-log.test.ts': 'sqlite',
  'test/scale-out/key-cache.test.ts': 'postgres',
  'test/scale-out/multi-instance.test.ts': 'postgres',
};

/**
 * Test files run at the same time within one backend's run. Two per backend, four in all beside
 * the other packages' suites: the files mostly wait on subprocesses and databases, yet more of
 * them at once on two cores only stretches each (and its timeouts) without finishing sooner.
 */
const FILE_CONCURRENCY = Number(process.env.SNAPGRAPH_TEST_CONCURRENCY ?? 2);

function inRunningOrder(files) {
  const slow = SLOW_FIRST.filter((file) => files.includes(file));
  return [...slow, ...files.filter((file) => !slow.includes(file)).sort()];
}

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
function runSuite(backend, args, files, { gathered, timesFile }) {
  const startedAt = Date.now();
  // Per-file times beside the usual output, into a file (SNAPGRAPH_TEST_FILE_TIMES=dir keeps it).
  const times = timesFile
    ? [
        '--test-reporter-destination=stdout',
        `--test-reporter=./scripts/file-times-reporter.mjs`,
        `--test-reporter-destination=${timesFile}`,
      ]
    : [];
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${FILE_CONCURRENCY}`,
      `--test-timeout=${FILE_HANG_GUARD_MS}`,
      '--test-reporter=spec',
      ...times,
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
      resolve({
        backend,
        code: code ?? 1,
        signal,
        output,
        seconds: Math.round((Date.now() - startedAt) / 1000),
        times: timesFile ? readTimes(timesFile) : '',
      }),
    );
  });
}

function readTimes(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
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
  const slowest = result.times.split('\n').filter(Boolean);
  return [
    `--- ${result.backend}: ${verdict} in ${result.seconds} s`,
    ...tally,
    ...failing,
    ...(slowest.length
      ? ['slowest files (time of their tests):', ...slowest.slice(0, -1).slice(0, 10), slowest.at(-1)]
      : []),
  ].join('\n');
}

const args = process.argv.slice(2);
// Where the per-file times go: SNAPGRAPH_TEST_FILE_TIMES keeps them; otherwise a temporary
// directory, removed at the end, serves the summary of a whole run.
const keptTimesDir = process.env.SNAPGRAPH_TEST_FILE_TIMES;
if (keptTimesDir) mkdirSync(keptTimesDir, { recursive: true });
if (args.some((a) => !a.startsWith('-'))) {
  const backend = process.env.SNAPGRAPH_TEST_BACKEND ?? 'sqlite';
  console.log(`\n=== test suite on ${backend} ===\n`);
  const timesFile = keptTimesDir ? join(keptTimesDir, `file-times-${backend}.txt`) : undefined;
  const result = await runSuite(backend, args, [], { gathered: false, timesFile });
  if (timesFile) process.stdout.write(`\nper-file times (${timesFile}):\n${readTimes(timesFile)}`);
  process.exit(result.code);
}

const files = inRunningOrder(findTests(join(root, 'test')));
const timesDir = keptTimesDir ?? mkdtempSync(join(tmpdir(), 'snapgraph-test-times-'));
const backends = ['sqlite'];
// SNAPGRAPH_TEST_BACKENDS=sqlite: a whole run on SQLite alone — CI's runs on the other Node
// lines (scripts/ci/node-lines.sh), where the driver code that differs is SQLite's native one.
if (process.env.SNAPGRAPH_TEST_BACKENDS === 'sqlite') console.log('Running on SQLite only (SNAPGRAPH_TEST_BACKENDS).');
else if (await postgresAnswers()) backends.push('postgres');
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
    runSuite(
      backend,
      args,
      files.filter((file) => (ONE_BACKEND_ONLY[file] ?? backend) === backend),
      { gathered: true, timesFile: join(timesDir, `file-times-${backend}.txt`) },
    ).then((result) => {
      console.log(`\n=== test suite on ${backend} ===\n`);
      process.stdout.write(result.output);
      return result;
    }),
  ),
);
console.log(`\n=== summary ===\n\n${results.map(summary).join('\n\n')}\n`);
if (!keptTimesDir) rmSync(timesDir, { recursive: true, force: true });
// exitCode, not exit(): the whole output must reach a pipe before the process ends (a CI log
// once lost the PostgreSQL run's end and the summary to an exit() right after a large write).
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
