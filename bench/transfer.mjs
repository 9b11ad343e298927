// Export and import of one brain of 1,000,000 snapshots and 3,000,000 edges (design §15):
// `snapgraph import` of a made-up export file into an empty database, then `snapgraph export`
// of the brain back to a file, each as the CLI a user runs, on SQLite and on PostgreSQL. Reports
// records per second (snapshots and edges separately for the import) and the peak RSS of each
// command; checks that the exported file is the imported one (but for the header).
//
//   node bench/transfer.mjs [--snapshots N] [--backend sqlite|postgres|both] [--quick]
//
// Targets: import ≥ 20,000 snapshots/s on SQLite; peak RSS < 300 MB both ways. Needs about
// 3 GB of free disk in the temporary directory at the default size.
import { spawn } from 'node:child_process';
import { createReadStream, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { runMain, trackChild } from './lib/cleanup.mjs';
import { syntheticBrainId, writeSyntheticExport } from './lib/export-file.mjs';
import { createBenchDatabase, postgresAnswers } from './lib/postgres.mjs';
import { machineDescription, table } from './lib/report.mjs';
import { CLI, REPO, tempDir } from './lib/server.mjs';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    snapshots: { type: 'string' },
    backend: { type: 'string', default: 'both' },
  },
});
const snapshots = Number(values.snapshots ?? (values.quick ? 20_000 : 1_000_000));
const RSS_LIMIT_MB = 300;
const SQLITE_IMPORT_TARGET = 20_000;

/** Runs the CLI to its end, sampling its peak RSS (VmHWM, which only grows) every 50 ms. */
function runCli(args, databaseUrl) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    trackChild(child);
    let stdout = '';
    let stderr = '';
    let peakKb = 0;
    let cpuTicks = 0;
    const sample = () => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
        // utime and stime, fields 14 and 15 of /proc/<pid>/stat (after the command's parentheses).
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpuTicks = Number(fields[11]) + Number(fields[12]);
      } catch {
        // exited between two samples
      }
    };
    const timer = setInterval(sample, 50);
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`snapgraph ${args[0]} exited ${code}: ${stderr.slice(-2000)}`));
      // CPU seconds as last sampled (clock ticks of 1/100 s): the machine may be shared, so
      // records per CPU-second say what the command costs when wall time says what it waited.
      else
        resolve({
          seconds: (performance.now() - started) / 1000,
          cpuSeconds: cpuTicks / 100,
          peakMb: peakKb / 1024,
          stdout,
        });
    });
  });
}

/** Whether two export files hold the same records (every line but the header). */
async function sameRecords(a, b) {
  const lines = (path) =>
    createInterface({ input: createReadStream(path), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const [x, y] = [lines(a), lines(b)];
  await x.next();
  await y.next();
  for (;;) {
    const [l, r] = await Promise.all([x.next(), y.next()]);
    if (l.done || r.done) return l.done === r.done;
    if (l.value !== r.value) return false;
  }
}

async function measure(backend, file, dir) {
  const databaseUrl = backend === 'sqlite' ? join(dir, 'transfer.db') : (await createBenchDatabase()).url;
  console.error(`${backend}: importing…`);
  const imported = await runCli(['import', file, '--json'], databaseUrl);
  const result = JSON.parse(imported.stdout);
  console.error(`${backend}: exporting…`);
  const out = join(dir, `${backend}-export.jsonl`);
  const exported = await runCli(['export', '--brain', syntheticBrainId, '--out', out], databaseUrl);
  const records = result.records;
  return {
    backend,
    import: {
      seconds: imported.seconds,
      cpuSeconds: imported.cpuSeconds,
      peakMb: imported.peakMb,
      records,
      snapshotsPerSecond: result.written.snapshot.records / result.written.snapshot.seconds,
      edgesPerSecond: result.written.edge.records / result.written.edge.seconds,
    },
    export: {
      seconds: exported.seconds,
      cpuSeconds: exported.cpuSeconds,
      peakMb: exported.peakMb,
      records,
      bytes: statSync(out).size,
    },
    same: await sameRecords(file, out),
  };
}

async function main() {
  const { dir } = tempDir();
  const file = join(dir, 'brain.jsonl');
  console.error(`writing ${snapshots} snapshots and ${3 * snapshots} edges to ${file}…`);
  await writeSyntheticExport(file, { snapshots });
  const backends = values.backend === 'both' ? ['sqlite', 'postgres'] : [values.backend];
  const results = [];
  for (const backend of backends) {
    if (backend === 'postgres' && !(await postgresAnswers())) {
      console.error('PostgreSQL does not answer: skipped');
      continue;
    }
    results.push(await measure(backend, file, dir));
  }
  const n = (x) => Math.round(x).toLocaleString('en-US');
  const rows = results.flatMap((r) => [
    [
      `${r.backend}: import`,
      n(r.import.records),
      r.import.seconds.toFixed(1),
      r.import.cpuSeconds.toFixed(1),
      n(r.import.records / r.import.seconds),
      `${n(r.import.snapshotsPerSecond)} snapshots/s, ${n(r.import.edgesPerSecond)} edges/s`,
      r.import.peakMb.toFixed(0),
    ],
    [
      `${r.backend}: export`,
      n(r.export.records),
      r.export.seconds.toFixed(1),
      r.export.cpuSeconds.toFixed(1),
      n(r.export.records / r.export.seconds),
      `${(r.export.bytes / 2 ** 20).toFixed(0)} MiB written; same records as imported: ${r.same ? 'yes' : 'NO'}`,
      r.export.peakMb.toFixed(0),
    ],
  ]);
  const targets = results.flatMap((r) => [
    ...(r.backend === 'sqlite'
      ? [
          `- import on SQLite ≥ ${n(SQLITE_IMPORT_TARGET)} snapshots/s: ${n(r.import.snapshotsPerSecond)} — ${
            r.import.snapshotsPerSecond >= SQLITE_IMPORT_TARGET ? 'met' : 'MISSED'
          }`,
        ]
      : []),
    `- ${r.backend} peak RSS < ${RSS_LIMIT_MB} MB: import ${r.import.peakMb.toFixed(0)} MB, export ${r.export.peakMb.toFixed(0)} MB — ${
      Math.max(r.import.peakMb, r.export.peakMb) < RSS_LIMIT_MB ? 'met' : 'MISSED'
    }`,
  ]);
  const report = [
    '# Snapgraph export and import benchmark',
    machineDescription({
      loadToolVersion: 'none (one CLI command at a time)',
      postgresVersion: null,
      settings: `${n(snapshots)} snapshots, ${n(3 * snapshots)} edges, ${n(Math.min(20, snapshots))} tombstones; the CLI as a user runs it`,
    }),
    'Records include the brain and tombstones. The import reads the file twice (every line is checked before anything is written); snapshot and edge rates are those sections of the writing pass, in wall time. Peak RSS is the command’s VmHWM.',
    `Load average when done: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${cpus().length} cores.`,
    table(['step', 'records', 'wall s', 'CPU s', 'records/s (wall)', 'detail', 'peak RSS (MB)'], rows),
    targets.join('\n'),
  ].join('\n\n');
  console.log(`\n${report}`);
  const out = join(REPO, 'bench/results');
  mkdirSync(out, { recursive: true });
  const path = join(out, `${new Date().toISOString().slice(0, 10)}-transfer${values.quick ? '-quick' : ''}.md`);
  writeFileSync(path, `${report}\n`);
  console.error(`\nwritten to ${path}`);
  if (results.some((r) => !r.same)) process.exitCode = 1;
}

await runMain(main);
