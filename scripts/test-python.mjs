// The Python client's suite (clients/python, design §22): `mypy --strict`, and pytest against a
// real server on SQLite and on PostgreSQL, the three at the same time. It needs
// Debian's /usr/bin/python3 with httpx, pytest, pytest-asyncio, hatchling and mypy (.ci/run
// installs them): without them the suite is skipped with a notice, except under CI=true, where
// it is mandatory, as PostgreSQL is.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const project = join(root, 'clients', 'python');
const python = process.env.SNAPGRAPH_PYTHON ?? '/usr/bin/python3';
const ci = process.env.CI === 'true' || process.env.CI === '1';

function missingModules() {
  const probe = spawnSync(
    python,
    [
      '-c',
      'import importlib.util as u, sys; print(" ".join(m for m in sys.argv[1:] if u.find_spec(m) is None))',
      'httpx',
      'pytest',
      'pytest_asyncio',
      'hatchling',
      'mypy',
      'venv',
    ],
    { encoding: 'utf8' },
  );
  if (probe.error || probe.status !== 0) return `${python} itself`;
  return probe.stdout.trim();
}

/** Runs a command in clients/python, its output gathered and printed whole at the end. */
function run(label, args, env = {}) {
  const child = spawn(python, args, {
    cwd: project,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.once('error', (err) => (output += `\ncould not start: ${err.message}\n`));
    child.once('close', (code) => {
      console.log(`\n--- ${label} ---\n${output}`);
      resolve(code ?? 1);
    });
  });
}

const missing = missingModules();
if (missing) {
  const message = `${python} lacks ${missing} (apt-get install python3-httpx python3-pytest python3-pytest-asyncio python3-hatchling python3-mypy python3-venv)`;
  if (ci) {
    console.error(`The Python client's suite is mandatory in CI: ${message}.`);
    process.exit(1);
  }
  console.warn(`\n*** NOTICE: the Python client's suite is SKIPPED: ${message}. ***\n`);
  process.exit(0);
}

// The PostgreSQL run skips its tests with a notice when PostgreSQL does not answer, and fails
// under CI=true (tests/server.py).
const backends = ['sqlite', 'postgres'];

// -p no:cacheprovider: no .pytest_cache left beside the sources.
const pytest = ['-m', 'pytest', '-p', 'no:cacheprovider', '-q', '-rs'];
const codes = await Promise.all([
  run('mypy --strict', ['-m', 'mypy', '--strict']),
  ...backends.map((backend) => run(`pytest on ${backend}`, pytest, { SNAPGRAPH_TEST_BACKEND: backend })),
]);
// pytest's 5 means no test ran: a failure here, never a pass.
process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
