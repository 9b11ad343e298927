import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { loadConfig } from '../../config.js';
import { databaseLabel, databaseUrlForCommand, shellWord } from '../../database-label.js';
import { isPostgresUrl } from '../../store/open-store.js';
import { backupSqliteFile, type BackupProgress } from '../../store/sqlite/online-backup.js';
import { UsageError, type CliIo } from '../io.js';

const USAGE = 'usage: snapgraph backup <file> [--force] [--json]';

/**
 * `snapgraph backup <file>` (design §16.5): an online copy of the SQLite database, consistent at
 * one moment, while the server keeps serving. On PostgreSQL the database's own tool does this
 * better than we could: the command says which one to run and exits 2, since no file was made
 * (a script that goes on to store "the backup" must not take this for success).
 */
export async function backupCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const file = positionals[0] as string;
  const config = loadConfig();
  io.err(`database: ${databaseLabel(config.databaseUrl)}`);

  if (isPostgresUrl(config.databaseUrl)) return postgresAdvice(config.databaseUrl, file, values.json, io);

  const source = resolve(config.databaseUrl.replace(/^(sqlite|file):(\/\/)?/i, ''));
  const target = resolve(file);
  checkTarget(source, target, values.force);
  const started = Date.now();
  const bar = progressBar();
  let result;
  try {
    result = await backupSqliteFile(source, target, { overwrite: values.force, progress: bar?.update });
  } finally {
    bar?.stop();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (values.json) {
    io.out(
      JSON.stringify({
        file: target,
        database: source,
        bytes: result.bytes,
        pages: result.pages,
        as_of: result.asOf.toISOString(),
        duration_ms: Date.now() - started,
      }),
    );
  } else {
    io.out(
      `Backed up ${source} to ${target}: ${megabytes(result.bytes)} in ${seconds} s, ` +
        `holding every write made before ${result.asOf.toISOString()}.`,
    );
  }
  return 0;
}

function checkTarget(source: string, target: string, force: boolean): void {
  if (!existsSync(source)) {
    throw new UsageError(`there is no SQLite database at ${source} (DATABASE_URL): nothing to back up`);
  }
  if (target === source) throw new UsageError('the backup file cannot be the database itself');
  const existing = statSync(target, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new UsageError(`${target} is a folder: name the backup file`);
  if (existing && !force) throw new UsageError(`${target} already exists: pass --force to replace it`);
  if (!statSync(dirname(target), { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`the folder ${dirname(target)} does not exist`);
  }
}

/** pg_dump's custom format, restored with pg_restore; a password is never printed. */
function postgresAdvice(databaseUrl: string, file: string, json: boolean, io: CliIo): number {
  const url = shellWord(databaseUrlForCommand(databaseUrl));
  const command = `pg_dump --format=custom --file=${shellWord(file)} ${url}`;
  const restore = `pg_restore --clean --if-exists --no-owner --dbname=${url} ${shellWord(file)}`;
  io.out(json ? JSON.stringify({ backend: 'postgresql', command, restore }) : command);
  io.err(
    'snapgraph: backup copies the SQLite database only; on PostgreSQL use pg_dump, as printed on standard output ' +
      '(docs/deployment.md, "Backups")',
  );
  return 2;
}

/** A bar of pages on a terminal; nothing on a pipe or in a log, where the summary line says it all. */
function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  if (!stream.isTTY) return undefined;
  const bar = new cliProgress.SingleBar(
    { stream, format: 'copying [{bar}] {percentage}% | {value}/{total} pages', hideCursor: true, fps: 10 },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: ({ totalPages, remainingPages }: BackupProgress) => {
      if (!started) bar.start(totalPages, 0);
      started = true;
      bar.setTotal(totalPages);
      bar.update(totalPages - remainingPages);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
