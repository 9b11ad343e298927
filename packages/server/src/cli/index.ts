// Only what every invocation needs is imported here. A command loads its own modules when it
// runs: the server (Fastify and everything behind it) for `serve` alone, the settings validator
// and one store's driver for the commands that touch the database, and nothing for `--help` —
// so a CLI call starts in a fraction of the time (docs/performance.md, "CLI start").
import { ConfigError } from '../config-error.js';
import { AppError } from '../errors.js';
import { VERSION } from '../version.js';
import { processIo, UsageError, type CliIo } from './io.js';

const HELP = `snapgraph ${VERSION} — knowledge-graph service

Usage:
  snapgraph serve                      start the HTTP server (PORT, HOST, DATABASE_URL, REDIS_URL, LOG_LEVEL)
  snapgraph migrate                    apply pending database migrations
  snapgraph keys create [--plan free|pro|enterprise] [--brain <id or name>] [--rpm N --burst N] [--json]
  snapgraph keys list [--account <account_id>] [--json]
  snapgraph keys revoke <key_id> [--json]
  snapgraph keys update <key_id> [--plan P] [--rpm N] [--burst N] [--json]
  snapgraph brains create --name <name> [--account <account_id> | --key <key_id>] [--json]
  snapgraph brains list [--account <account_id>] [--json]
  snapgraph search <query> [--brain <id or name>] [--limit N] [--no-graph] [--json]
  snapgraph crystallize <file|-> [--brain <id or name>] [--review] [--source-type T] [--no-link] [--json]
  snapgraph captures list [--brain <id or name>] [--json] | accept <capture_id> [--json] | reject <capture_id> [--json]
  snapgraph memories add <text> [--speaker S] [--session ID] [--type T] [--occurred-at ISO] [--brain <id or name>] [--json]
  snapgraph memories list|search [<query>] [--speaker S] [--session ID] [--limit N] [--brain <id or name>] [--json]
  snapgraph ingest <file|-> --title <title> --source-type <type> [--author A] [--url U] [--domain D]
                   [--brain <id or name>] [--no-snapshots] [--json]
  snapgraph export --brain <id or name> [--format jsonl|graphml] [--out <file>]
  snapgraph import <file> [--brain <id or name>] [--json]
  snapgraph backup <file> [--force] [--json]

crystallize and ingest read a file, or standard input for "-"; without --brain they use the only
brain there is. --brain takes a brain's id, or its name when one brain has that name. Every
command that opens the database names it on standard error ("database: ./data/snapgraph.db").
With LLM_BASE_URL set they use that LLM, otherwise the built-in extractor.
Without --plan, "keys create" makes the owner's key: enterprise, 6,000 requests a minute and 100 a
second; Free and Pro are for keys handed to others (docs/rate-limits.md).
Without --brain, "keys create" makes a new account with a default brain for the key. On an
install with no account yet, "brains create" makes a new account for the brain.

"export" writes a brain (snapshots, edges, tombstones) as NDJSON or GraphML; "import" checks
every line first, then writes, keeping ids (or, with --brain, into that existing brain with new
ids). An interrupted import resumes when run again; a finished one is not repeated.

"backup" copies the SQLite database while the server runs, as it stood at one moment; on
PostgreSQL it prints the pg_dump command to use instead.`;

/** Runs one CLI invocation; returns the process exit code. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'serve': {
        noArguments('serve', args);
        const [{ loadConfig }, { startServer }, { databaseLabel }] = await Promise.all([
          import('../config.js'),
          import('../main.js'),
          import('../database-label.js'),
        ]);
        const config = loadConfig();
        // As every command that opens the database (design §16.3), before the banner says the rest.
        io.err(`database: ${databaseLabel(config.databaseUrl)}`);
        await startServer(config);
        return 0;
      }
      case 'migrate': {
        noArguments('migrate', args);
        const { withDomain } = await import('./with-domain.js');
        const applied = await withDomain((domain) => domain.store.migrate(), { migrate: false });
        io.out(applied === 0 ? 'Database is up to date.' : `Applied ${applied} migration(s).`);
        return 0;
      }
      case 'keys':
        await (await import('./commands/keys.js')).keysCommand(args, io);
        return 0;
      case 'brains':
        await (await import('./commands/brains.js')).brainsCommand(args, io);
        return 0;
      case 'export':
        await (await import('./commands/transfer.js')).exportCommand(args, io);
        return 0;
      case 'import':
        return await (await import('./commands/transfer.js')).importCommand(args, io);
      case 'search':
        await (await import('./commands/search.js')).searchCommand(args, io);
        return 0;
      case 'crystallize':
        await (await import('./commands/crystallize.js')).crystallizeCommand(args, io);
        return 0;
      case 'ingest':
        await (await import('./commands/ingest.js')).ingestCommand(args, io);
        return 0;
      case 'memories':
        await (await import('./commands/memories.js')).memoriesCommand(args, io);
        return 0;
      case 'captures':
        await (await import('./commands/captures.js')).capturesCommand(args, io);
        return 0;
      case 'backup':
        return await (await import('./commands/backup.js')).backupCommand(args, io);
      case '--version':
      case 'version':
        io.out(VERSION);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"\n\n${HELP}`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof AppError) {
      io.err(`snapgraph: ${err.message}`);
      return 2;
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`snapgraph: ${err.message}`);
      return 2;
    }
    if (isEnvironmentFailure(err)) {
      // The machine or the database said no (a port in use, a path that cannot be a file, a
      // server that does not answer): one line saying what, not a stack trace of ours.
      io.err(`snapgraph: ${(err as Error).message}${notMigratedHint(err as Error)}${portInUseHint(err as Error)}`);
      return 1;
    }
    throw err;
  }
}

function isEnvironmentFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  // A system error (ECONNREFUSED, EADDRINUSE), SQLite's, or PostgreSQL's own refusal after
  // connecting (a database that does not exist, a password refused): a SQLSTATE and a severity.
  const postgresRefused = typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || err.name === 'SqliteError' || postgresRefused;
}

/**
 * A table missing (SQLite's "no such table", PostgreSQL's 42P01) means a database never
 * migrated, which only MIGRATE_ON_START=false leaves so: say what to run.
 */
function notMigratedHint(err: Error): string {
  const missingTable = /^no such table: /.test(err.message) || (err as { code?: unknown }).code === '42P01';
  return missingTable
    ? ' (the database is not migrated: run `snapgraph migrate`, or unset MIGRATE_ON_START=false)'
    : '';
}

/** A port in use (another server, or this one started twice): say how to pick another. */
function portInUseHint(err: Error): string {
  return (err as { code?: unknown }).code === 'EADDRINUSE'
    ? ' (another server is listening there: stop it, or start on another port, e.g. `PORT=8081 npm start`)'
    : '';
}

/** `serve` and `migrate` are configured by the environment; a flag given to them is a mistake. */
function noArguments(command: string, args: string[]): void {
  if (args.length > 0) {
    throw new UsageError(`${command} takes no arguments (settings come from the environment): ${args.join(' ')}`);
  }
}
