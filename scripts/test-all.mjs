// `npm test`: every package's suite at the same time — the server's (itself SQLite and
// PostgreSQL side by side), the client's, the MCP server's, the web explorer's (Chromium) and the
// Python client's (scripts/test-python.mjs). They share nothing (each starts
// its own servers on free ports and its own databases) and spend most of their time waiting on
// subprocesses, sockets and databases, so together they take about as long as the longest.
// Each suite's output is printed whole when it finishes, then a summary; the exit code is 1 if
// any failed. Arguments pass through to every suite's test script.
import { spawn } from 'node:child_process';

const SUITES = [
  'packages/server',
  'packages/client',
  'packages/mcp',
  'packages/langchain',
  'packages/ai-sdk',
  'packages/web',
  'clients/python',
];
// Suites that are not npm workspaces, and the command that runs each (arguments are node's, not theirs).
const COMMANDS = { 'clients/python': [process.execPath, ['scripts/test-python.mjs']] };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = process.argv.slice(2);

function run(workspace) {
  const started = Date.now();
  const [command, commandArgs] = COMMANDS[workspace] ?? [
    npm,
    ['run', 'test', '--silent', '-w', workspace, ...(args.length ? ['--', ...args] : [])],
  ];
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.once('error', (err) => (output += `\ncould not start: ${err.message}\n`));
    child.once('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`\n=== ${workspace} ===\n`);
      process.stdout.write(output);
      resolve({ workspace, code: code ?? 1, signal, seconds, output });
    });
  });
}

console.log(`Running the suites of ${SUITES.join(', ')} at the same time; each is printed when it finishes.`);
const results = await Promise.all(SUITES.map(run));
console.log('\n=== all suites ===\n');
for (const r of results) {
  console.log(`${r.workspace}: ${r.code === 0 ? 'passed' : `FAILED (exit ${r.signal ?? r.code})`} in ${r.seconds} s`);
}
// A failed suite's failures again, at the end, where a CI log that keeps only its tail shows
// them: node's spec reporter lists them after "failing tests:"; otherwise the suite's last lines.
for (const r of results.filter((r) => r.code !== 0)) {
  const lines = r.output.split('\n');
  const start = lines.findIndex((line) => line.includes('failing tests:'));
  const failures = start >= 0 ? lines.slice(start, start + 200) : lines.slice(-60);
  console.log(`\n=== ${r.workspace}: what failed ===\n\n${failures.join('\n')}`);
}
// exitCode, not exit(): every suite's output must reach the pipe or file before the end.
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
