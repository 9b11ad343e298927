import type { Memory } from '../../model.js';
import { settleArrivals } from '../memories/index.js';
import { createHash } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { Row, TableShape } from '../../store/transfer-store.js';
import type { Domain } from '../context.js';
import { END_KIND } from './format.js';
import type { SourceLine } from './jsonl-source.js';
import type { Section } from './section.js';
import { SECTIONS } from './sections/index.js';
import type { ImportSource } from './source.js';
import { claimTarget, planImport } from './target.js';
import { checkFile, type LineProblem } from './validate.js';

/** Rows per transaction: large enough that commits cost little, small enough to resume quickly. */
const BATCH_ROWS = 5000;

export interface ImportProgress {
  phase: 'check' | 'import';
  done: number;
  total: number;
}

export type { ImportSource } from './source.js';

export interface ImportOptions {
  /** Import into this existing brain (new ids) instead of the file's own brain (ids kept). */
  brainId?: string | undefined;
  /**
   * The caller's account (POST /v1/brains/import): records go into it only, and `brainId` must
   * be one of its brains. Without it (the CLI), the account the file names.
   */
  accountId?: string | undefined;
  /**
   * With `accountId` (an import job): the brain the file's brain becomes when any of its ids is
   * taken. Drawn once per job, so that the job resumed after a crash finds its rows, while
   * another job of the same file makes a brain of its own (design §15.3).
   */
  freshBrainId?: string | undefined;
  onProgress?: (progress: ImportProgress) => void;
  /** Run as this job (POST /v1/brains/import): the last batch records importAnswer as its output. */
  job?: { id: string; owner: string } | undefined;
}

export interface ImportResult {
  brainId: string;
  keptIds: boolean;
  /** Record lines in the file. */
  records: number;
  /** Records in the file, by kind (brain, snapshot, edge, …). */
  counts: Record<string, number>;
  /** The line (the record, in GraphML) an interrupted earlier run had reached, when this run resumed it. */
  resumedAfterLine: number;
  /** True when an earlier run had already imported this file into this brain: nothing was done. */
  alreadyImported: boolean;
  /** Records written by this run, and the seconds spent on them, by kind (for rates). */
  written: Record<string, { records: number; seconds: number }>;
}

/** The file has problems; nothing was imported. */
export class ImportRejected extends AppError {
  constructor(
    /** The first problems (validate.ts, PROBLEMS_KEPT); a line can have several. */
    readonly problems: LineProblem[],
    /** Every bad line, counted. */
    readonly badLines: number,
  ) {
    super('BAD_REQUEST', `the file has ${badLines} bad line(s); nothing was imported`, {
      errors: problems.slice(0, 1000).map((p) => ({ field: `line ${p.line}`, reason: p.reason })),
    });
  }
}

const sectionOf = new Map<string, Section>(SECTIONS.map((section) => [section.kind, section]));

/**
 * Imports an export file (design §15.2): checks every line first (ImportRejected lists the bad
 * ones, and nothing is written), then writes the records in batches, each batch in one
 * transaction with the checkpoint of how far it got. Rows that already exist are left as they
 * are, so running the import again changes nothing, and one killed at any moment resumes where
 * its last batch committed.
 */
export async function importFile(
  domain: Domain,
  source: ImportSource,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const progress = options.onProgress ?? (() => undefined);
  const fingerprint = createHash('sha256');
  const counts: Record<string, number> = {};
  const checked = await checkFile(
    observe(
      source.lines((line) => fingerprint.update(line).update('\n')),
      () => progress({ phase: 'check', ...source.readPosition() }),
      counts,
    ),
    { refuseNul: !domain.store.capabilities.storesNul },
  );
  if (checked.problems.length > 0 || !checked.header || !checked.brain)
    throw new ImportRejected(checked.problems, checked.badLines);
  const file = { brainId: checked.header.brain_id, brain: checked.brain, fingerprint: fingerprint.digest('hex') };
  let target = await planImport(domain, source, file, options);
  if (!(await claimTarget(domain, target, checked.brain))) {
    // Another import took the brain id between the look and the claim: a brain of our own.
    target = await planImport(domain, source, file, { ...options, keptTaken: true });
    if (!(await claimTarget(domain, target, checked.brain))) throw new Error('the import could not create its brain');
  }
  const runId = target.runId;
  const records = checked.items - 2;
  const result: ImportResult = {
    brainId: target.brainId,
    keptIds: target.keepIds,
    records,
    counts,
    resumedAfterLine: 0,
    alreadyImported: false,
    written: {},
  };
  // A checkpoint counts only while its brain is there: a brain deleted since is imported afresh.
  const brainThere = (await domain.store.brains.getUnscoped(target.brainId)) !== undefined;
  const checkpoint = brainThere ? await domain.store.transfer.checkpoint(runId) : undefined;
  if (checkpoint?.finished) return { ...result, alreadyImported: true };
  const skip = checkpoint?.linesDone ?? 0;
  result.resumedAfterLine = skip;

  let batches: { shape: TableShape; rows: Row[] }[] = [];
  let rowsInBatch = 0;
  const flush = async (line: number, finished: boolean) => {
    const job = finished && options.job ? { ...options.job, draft: importAnswer(result) } : undefined;
    await domain.store.transfer.writeRows(batches, { id: runId, linesDone: line, finished }, job);
    batches = [];
    rowsInBatch = 0;
    progress({ phase: 'import', done: recordsUpTo(line), total: records });
  };
  // Records done once `item` items are: the header is no record, nor is the end line.
  const recordsUpTo = (item: number) => Math.min(records, Math.max(0, item - 1));
  progress({ phase: 'import', done: recordsUpTo(skip), total: records });
  let kind: string | undefined;
  let kindSince = performance.now();
  /** Counts a record of `next`; the time up to the first record of the next kind is its kind's. */
  const tally = (next: string | undefined) => {
    if (next !== kind) {
      const now = performance.now();
      if (kind !== undefined) (result.written[kind] as { seconds: number }).seconds = (now - kindSince) / 1000;
      kind = next;
      kindSince = now;
    }
    if (next !== undefined) (result.written[next] ??= { records: 0, seconds: 0 }).records++;
  };
  // Items are counted rather than taken by line number: in GraphML several records may share a line.
  let ordinal = 0;
  const unsettled: string[] = [];
  for await (const item of source.lines()) {
    ordinal++;
    if (ordinal <= skip || ordinal === 1 || item.error !== undefined) continue;
    const record = item.value as { kind: string; data: Row };
    if (record.kind === END_KIND) break;
    tally(record.kind);
    // Memories of a file from before design §6.1 are settled by the rules once written.
    if (record.kind === 'memory' && !('superseded_by' in record.data))
      unsettled.push(target.mapId(record.data.id as string));
    for (const { shape, row } of (sectionOf.get(record.kind) as Section).toRows(record.data, target)) {
      const last = batches[batches.length - 1];
      if (last?.shape === shape) last.rows.push(row);
      else batches.push({ shape, rows: [row] });
      rowsInBatch++;
    }
    if (rowsInBatch >= BATCH_ROWS) await flush(ordinal, false);
  }
  await flush(checked.items, true);
  await settleImported(domain, target.accountId, unsettled);
  tally(undefined);
  return result;
}

/** Design §6.1 for imported memories that carry no supersession of their own. */
async function settleImported(domain: Domain, accountId: string, ids: string[]): Promise<void> {
  const memories: Memory[] = [];
  for (const id of ids) {
    const memory = await domain.store.memories.get(accountId, id);
    if (memory) memories.push(memory);
  }
  await settleArrivals(domain, accountId, memories);
}

/** What an import job answers (design §15.3). */
export const importAnswer = (result: Pick<ImportResult, 'brainId' | 'counts'>) => ({
  brain_id: result.brainId,
  counts: result.counts,
});

/** Passes the lines through, calling `tick` every few thousand of them, and counts records by kind. */
async function* observe(
  lines: AsyncIterable<SourceLine>,
  tick: () => void,
  counts: Record<string, number>,
): AsyncIterable<SourceLine> {
  let n = 0;
  for await (const line of lines) {
    if (++n % 5000 === 0) tick();
    const kind = line.error === undefined ? (line.value as { kind?: unknown } | null)?.kind : undefined;
    if (n > 1 && typeof kind === 'string' && kind !== END_KIND) counts[kind] = (counts[kind] ?? 0) + 1;
    yield line;
  }
  tick();
}
