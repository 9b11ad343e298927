// Markdown for the results: aligned tables, ranges, ratios, and a description of the machine.
import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';
import Database from 'better-sqlite3';
import { summarize } from './load.mjs';
import { REPO } from './server.mjs';

export function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((_, i) => Math.max(3, ...cells.map((row) => [...row[i]].length)));
  const line = (row) => `| ${row.map((cell, i) => cell + ' '.repeat(widths[i] - [...cell].length)).join(' | ')} |`;
  return [line(cells[0]), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...cells.slice(1).map(line)].join(
    '\n',
  );
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/** "23399 (21447–23728)" */
export const range = ({ median, min, max }, digits = 0) =>
  Number.isNaN(median) || min === max
    ? fixed(median, digits)
    : `${fixed(median, digits)} (${fixed(min, digits)}–${fixed(max, digits)})`;

/** "1.05× (0.98–1.10)" */
export const ratio = (r, digits = 2) =>
  Number.isNaN(r.median)
    ? 'n/a'
    : r.min === r.max
      ? `${fixed(r.median, digits)}×`
      : `${fixed(r.median, digits)}× (${fixed(r.min, digits)}–${fixed(r.max, digits)})`;

/** The columns every measurement row shares: req/s, p50, p99, server CPU per request. */
export function measurementCells(samples) {
  return [
    range(summarize(samples, 'rps')),
    fixed(summarize(samples, 'p50').median, 2),
    range(summarize(samples, 'p99'), 2) + failures(samples),
    fixed(summarize(samples, 'cpuPerRequestUs').median, 0),
  ];
}

/**
 * " (12 timeouts)": requests the load generator gave up on (after 10 s) are not in its
 * percentiles; "no response" counts the measurements in which not one request completed.
 */
export function failures(samples) {
  const silent = samples.filter((s) => !(s.requests > 0)).length;
  const timeouts = samples.reduce((sum, s) => sum + (s.timeouts ?? 0), 0);
  const errors = samples.reduce((sum, s) => sum + (s.socketErrors ?? 0), 0);
  const parts = [
    silent > 0 && `no response in ${silent} of ${samples.length} rounds`,
    timeouts > 0 && `${timeouts} timeouts`,
    errors > 0 && `${errors} socket errors`,
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
/** The same, with a ratio column after req/s. */
export function cellsWithRatio(samples, ratioText) {
  const [rps, ...rest] = measurementCells(samples);
  return [rps, ratioText, ...rest];
}
export const MEASUREMENT_HEADERS = ['req/s median (min–max)', 'p50 ms', 'p99 ms median (min–max)', 'server CPU µs/req'];

/** A target line for the summary: `met` is true, false, null (not measured) or undefined (no target). */
export function target(scenario, what, value, goal, met, note = '') {
  return { scenario, what, value, goal, met, note };
}

export function targetsTable(targets) {
  return table(
    ['scenario', 'measure', 'result', 'target', 'met?'],
    targets.map((t) => [
      t.scenario,
      t.what,
      t.value,
      t.goal,
      t.met === undefined
        ? '—'
        : t.met === null
          ? `not measured${t.note ? `: ${t.note}` : ''}`
          : t.met
            ? 'yes'
            : `**no**${t.note ? ` (${t.note})` : ''}`,
    ]),
  );
}

function tryRun(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', cwd: REPO, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export function machineDescription({ loadToolVersion, postgresVersion, settings }) {
  const cpu = cpus();
  const db = new Database(':memory:');
  const sqlite = db.prepare('SELECT sqlite_version() AS v').get().v;
  db.close();
  // postgresVersion: a version, undefined when PostgreSQL did not answer, null when not used.
  const postgres =
    postgresVersion === null ? '' : postgresVersion ? `, PostgreSQL ${postgresVersion}` : ', PostgreSQL not reachable';
  const commit = tryRun('git', ['rev-parse', '--short', 'HEAD']) ?? 'unknown';
  const dirty = tryRun('git', ['status', '--porcelain', '--', 'packages']) ? ' + uncommitted changes in packages/' : '';
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model?.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}`,
    `- Node ${process.version}, SQLite ${sqlite}${postgres}`,
    `- Load: ${loadToolVersion}, ${settings}`,
    `- Code: commit ${commit}${dirty}`,
  ].join('\n');
}
