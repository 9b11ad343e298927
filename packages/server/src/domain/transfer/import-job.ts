import { rm } from 'node:fs/promises';
import { resolveBrainId } from '../brains/index.js';
import type { JobFunction } from '../jobs/index.js';
import { AppError, type ErrorDetails } from '../../errors.js';
import { importAnswer, type ImportSource } from './import.js';
import { importFile, ImportRejected, importSource } from './index.js';

/** What an import job keeps of its request (design §15.3). */
export interface ImportJobInput {
  /** The uploaded file, removed when the job ends. */
  file: string;
  format: 'jsonl' | 'graphml';
  /** Into this brain of the caller (new ids), as `snapgraph import --brain`. */
  brain_id?: string | undefined;
  /** The brain the file's brain becomes when its id is taken: drawn once, so a resumed run finds it. */
  fresh_brain_id: string;
}

/** How many bad lines a failed import names (design §15.3). */
const LINES_NAMED = 100;

/**
 * POST /v1/brains/import runs as a job of kind `import` (background/index.ts): the CLI's import (checked first, written in
 * resumable batches), for the caller's account only. Its result is `{ brain_id, counts }`; a file
 * with bad lines fails it with `error.details: [{ line, reason }]` and nothing written.
 */
export const runImportJob: JobFunction = async ({ domain, principal, input, progress, signal, job: run }) => {
  const job = input as ImportJobInput;
  // An earlier run wrote the last batch and died before the job recorded it: its answer, and
  // the file it may not have removed yet.
  if (run.written) {
    await rm(job.file, { force: true });
    return { status: 200, body: run.written.draft };
  }
  let keepFile = false;
  try {
    // The brain may have been deleted since the request was accepted.
    if (job.brain_id !== undefined) await resolveBrainId(domain, principal, job.brain_id);
    const source = stoppable(importSource(job.file, job.format === 'graphml' ? '<' : '{'), signal);
    const result = await importFile(domain, source, {
      brainId: job.brain_id,
      accountId: principal.accountId,
      freshBrainId: job.fresh_brain_id,
      onProgress: progress,
      job: { id: run.id, owner: run.owner },
    });
    return { status: 200, body: importAnswer(result) };
  } catch (err) {
    // Stopped for a shutdown: the job is queued again and will want its file.
    if (signal.aborted) keepFile = true;
    if (err instanceof ImportRejected) throw rejected(err);
    throw err;
  } finally {
    if (!keepFile) await rm(job.file, { force: true });
  }
};

/** One `{ line, reason }` per bad line (a line's several problems in one reason), the first 100. */
function rejected(err: ImportRejected): AppError {
  const reasons = new Map<number, string[]>();
  for (const { line, reason } of err.problems) {
    const known = reasons.get(line);
    if (known) known.push(reason);
    else if (reasons.size < LINES_NAMED) reasons.set(line, [reason]);
  }
  const details = [...reasons].map(([line, all]) => ({ line, reason: all.join('; ') }));
  return new AppError('BAD_REQUEST', err.message, details as unknown as ErrorDetails);
}

/** The file's lines until `signal` aborts (shutdown): the import stops between two lines. */
function stoppable(source: ImportSource, signal: AbortSignal): ImportSource {
  return {
    readPosition: () => source.readPosition(),
    async *lines(text) {
      for await (const line of source.lines(text)) {
        if (signal.aborted) throw new Error('the import was stopped: the server is shutting down');
        yield line;
      }
    },
  };
}
