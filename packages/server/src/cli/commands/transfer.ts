import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync, createWriteStream } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import {
  EXPORT_FORMATS,
  exportBrain,
  importFile,
  ImportRejected,
  importSource,
  type ExportFormat,
  type ImportResult,
} from '../../domain/transfer/index.js';
import { UsageError, type CliIo } from '../io.js';
import { progressView } from '../progress.js';
import { withDomain } from '../with-domain.js';
import { findCliBrain } from '../brain-scope.js';

const EXPORT_USAGE = 'usage: snapgraph export --brain <id or name> [--format jsonl|graphml] [--out <file>]';
const IMPORT_USAGE = 'usage: snapgraph import <file> [--brain <id or name>] [--json]';

/**
 * `snapgraph export`: the brain's file on stdout or in --out. A file is written beside its
 * final name and renamed when whole, so an interrupted export never leaves a file that looks
 * complete.
 */
export async function exportCommand(args: string[], _io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { brain: { type: 'string' }, format: { type: 'string', default: 'jsonl' }, out: { type: 'string' } },
  });
  if (values.brain === undefined || positionals.length > 0) throw new UsageError(EXPORT_USAGE);
  const format = values.format as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be jsonl or graphml\n${EXPORT_USAGE}`);
  const named = values.brain;
  if (values.out !== undefined) checkOut(values.out);
  await withDomain(async (domain) => {
    const brainId = (await findCliBrain(domain, named)).id;
    const text = Readable.from(exportBrain(domain, brainId, format));
    if (values.out === undefined) {
      try {
        await pipeline(text, process.stdout, { end: false });
      } catch (err) {
        // The reader stopped early (`| head`): it has what it wanted, as with any Unix tool.
        if ((err as NodeJS.ErrnoException).code !== 'EPIPE') throw err;
      }
      return;
    }
    const partial = `${values.out}.partial`;
    try {
      await pipeline(text, createWriteStream(partial));
      renameSync(partial, values.out);
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
  });
}

/** --out names a file to write in a folder that exists: said before any work, as a usage error. */
function checkOut(out: string): void {
  if (out === '') throw new UsageError(`--out needs the file to write\n${EXPORT_USAGE}`);
  if (out.endsWith(sep) || out.endsWith('/') || (existsSync(out) && statSync(out).isDirectory())) {
    throw new UsageError(`--out ${out} is a folder: give the file to write, such as ${join(out, 'brain.jsonl')}`);
  }
  const folder = dirname(resolve(out));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`--out ${out}: the folder ${folder} does not exist`);
  }
}

/** `snapgraph import`: exit code 1 when the file has bad lines (each one reported on stderr). */
export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { brain: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const [path] = positionals;
  if (path === undefined || positionals.length > 1) throw new UsageError(IMPORT_USAGE);
  const source = importSource(path, firstCharacter(path));
  const view = progressView();
  try {
    const result = await withDomain(async (domain) => {
      const brainId = values.brain === undefined ? undefined : (await findCliBrain(domain, values.brain)).id;
      return importFile(domain, source, { brainId, onProgress: (progress) => view.update(progress) });
    });
    view.stop();
    if (values.json) io.out(JSON.stringify(importJson(result)));
    else if (result.alreadyImported) io.out(`Nothing to do: this file was already imported into ${result.brainId}.`);
    else {
      const resumed = result.resumedAfterLine > 0 ? ` (resumed after line ${result.resumedAfterLine})` : '';
      const ids = result.keptIds ? 'ids kept' : 'new ids';
      io.out(`Imported ${result.records} records into ${result.brainId}, ${ids}${resumed}.`);
    }
    return 0;
  } catch (err) {
    view.stop();
    if (!(err instanceof ImportRejected)) throw err;
    for (const problem of err.problems) io.err(`${path}:${problem.line}: ${problem.reason}`);
    const unlisted = err.badLines - new Set(err.problems.map((p) => p.line)).size;
    if (unlisted > 0) io.err(`${path}: … and ${unlisted} more bad line(s), not listed`);
    io.err(`snapgraph: ${err.message}`);
    return 1;
  }
}

/**
 * `--json`: the result in the API's snake_case, as every other command's output and the HTTP
 * import job's result (`brain_id`, `counts`).
 */
function importJson(result: ImportResult) {
  return {
    brain_id: result.brainId,
    kept_ids: result.keptIds,
    records: result.records,
    counts: result.counts,
    resumed_after_line: result.resumedAfterLine,
    already_imported: result.alreadyImported,
    written: result.written,
  };
}

/** The first non-blank character of the file: `<` for GraphML, `{` for NDJSON. */
function firstCharacter(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(256);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8').trimStart().charAt(0);
  } finally {
    closeSync(fd);
  }
}
