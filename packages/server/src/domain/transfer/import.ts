import { createHash } from 'node:crypto';
import { AppError, notFound } from '../../errors.js';
import type { Row, TableShape } from '../../store/transfer-store.js';
import type { Domain } from '../context.js';
import { END_KIND } from './format.js';
import type { SourceLine } from './jsonl-source.js';
import { remappedId } from './remap.js';
import type { ImportTarget, Section } from './section.js';
import { SECTIONS } from './sections/index.js';
import { checkFile, type LineProblem } from './validate.js';

/** Rows per transaction: large enough that commits cost little, small enough to resume quickly. */
const BATCH_ROWS = 5000;

export interface ImportProgress {
  phase: 'check' | 'import';
  done: number;
  total: number;
}

/** A file to import, read as often as needed (once to check it, once to write it). */
export interface ImportSource {
  /** Its lines; `text` sees every raw line, for the fingerprint. */
  lines(text?: (line: string) => void): AsyncIterable<SourceLine>;
  /** For progress while checking: how far reading has got, of how much. */
  readPosition(): { done: number; total: number };
}

export interface ImportOptions {
  /** Import into this existing brain (new ids) instead of the file's own brain (ids kept). */
  brainId?: string | undefined;
  /**
   * Import for this account only (POST /v1/brains/import, DESIGN 5.2): an existing brain must be
   * its; the file's brain is created in it, with the file's ids when the brain's id is free on
   * this server, else as `freshBrainId` with new ids. `freshBrainId` must be the same each time
   * one import is run again (the job's), so that a resumed import finds its rows.
   */
  account?: { id: string; freshBrainId: string } | undefined;
  onProgress?: (progress: ImportProgress) => void;
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
  constructor(readonly problems: LineProblem[]) {
    // A line can have several problems (each is listed); the message counts lines.
    const lines = new Set(problems.map((p) => p.line)).size;
    super('BAD_REQUEST', `the file has ${lines} bad line(s); nothing was imported`, {
      errors: problems.slice(0, 1000).map((p) => ({ field: `line ${p.line}`, reason: p.reason })),
    });
  }
}

const sectionOf = new Map<string, Section>(SECTIONS.map((section) => [section.kind, section]));

/**
 * Imports an export file (DESIGN 4.11): checks every line first (ImportRejected lists the bad
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
  );
  if (checked.problems.length > 0 || !checked.header || !checked.brain) throw new ImportRejected(checked.problems);
  const digest = fingerprint.digest('hex');
  const runIdOf = (target: ImportTarget) =>
    createHash('sha256')
      .update(`${digest}\0${target.brainId}\0${target.keepIds ? 'kept' : 'remapped'}`)
      .digest('hex');
  const target =
    options.account && options.brainId === undefined
      ? await accountTarget(domain, source, checked.header.brain_id, options.account, runIdOf)
      : await importTarget(domain, checked.header.brain_id, checked.brain, options.brainId);
  const runId = runIdOf(target);
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
  const brainThere = (await domain.store.getBrainUnscoped(target.brainId)) !== undefined;
  const checkpoint = brainThere ? await domain.store.transfer.checkpoint(runId) : undefined;
  if (checkpoint?.finished) return { ...result, alreadyImported: true };
  const skip = checkpoint?.linesDone ?? 0;
  result.resumedAfterLine = skip;

  let batches: { shape: TableShape; rows: Row[] }[] = [];
  let rowsInBatch = 0;
  const flush = async (line: number, finished: boolean) => {
    await domain.store.transfer.writeRows(batches, { id: runId, linesDone: line, finished });
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
  for await (const item of source.lines()) {
    ordinal++;
    if (ordinal <= skip || ordinal === 1 || item.error !== undefined) continue;
    const record = item.value as { kind: string; data: Row };
    if (record.kind === END_KIND) break;
    tally(record.kind);
    for (const { shape, row } of (sectionOf.get(record.kind) as Section).toRows(record.data, target)) {
      const last = batches[batches.length - 1];
      if (last?.shape === shape) last.rows.push(row);
      else batches.push({ shape, rows: [row] });
      rowsInBatch++;
    }
    if (rowsInBatch >= BATCH_ROWS) await flush(ordinal, false);
  }
  await flush(checked.items, true);
  tally(undefined);
  return result;
}

/** The brain records go to: the file's own (created, ids kept) or an existing one (ids remapped). */
async function importTarget(
  domain: Domain,
  fileBrainId: string,
  brain: Record<string, unknown>,
  intoBrainId: string | undefined,
): Promise<ImportTarget> {
  if (intoBrainId !== undefined && intoBrainId !== fileBrainId) {
    const existing = await domain.store.getBrainUnscoped(intoBrainId);
    if (!existing) throw notFound('brain');
    return {
      brainId: intoBrainId,
      accountId: existing.account_id,
      keepIds: false,
      mapId: (id) => remappedId(id, intoBrainId),
    };
  }
  // Already there (a resumed or repeated import, or the brain exists): its account stays.
  const existing = await domain.store.getBrainUnscoped(fileBrainId);
  return {
    brainId: fileBrainId,
    accountId: existing?.account_id ?? (brain.account_id as string),
    keepIds: true,
    mapId: (id) => id,
  };
}

/**
 * Where an import for one account goes (ImportOptions.account): the file's brain under its own
 * ids when they are all free on this server — or when it is this account's brain that an
 * interrupted run of this same import began — and otherwise a new brain, `freshBrainId`, with
 * new ids. The fresh
 * brain is created by the import's first batch, so once it exists this import is resuming.
 */
async function accountTarget(
  domain: Domain,
  source: ImportSource,
  fileBrainId: string,
  account: { id: string; freshBrainId: string },
  runIdOf: (target: ImportTarget) => string,
): Promise<ImportTarget> {
  const kept: ImportTarget = { brainId: fileBrainId, accountId: account.id, keepIds: true, mapId: (id) => id };
  const fresh: ImportTarget = {
    brainId: account.freshBrainId,
    accountId: account.id,
    keepIds: false,
    createsBrain: true,
    mapId: (id) => remappedId(id, account.freshBrainId),
  };
  if (await domain.store.getBrainUnscoped(account.freshBrainId)) return fresh;
  const existing = await domain.store.getBrainUnscoped(fileBrainId);
  if (!existing) return (await anyIdTaken(domain, source)) ? fresh : kept;
  const began = existing.account_id === account.id ? await domain.store.transfer.checkpoint(runIdOf(kept)) : undefined;
  return began && !began.finished ? kept : fresh;
}

/** Ids of a file's records are looked up this many at a time. */
const ID_BATCH = 1000;

/**
 * Whether any record of the (checked) file has an id that exists already on this server, in
 * any account: then none of the file's ids is kept (DESIGN 5.2). One more read of the file,
 * with one query per thousand ids.
 */
async function anyIdTaken(domain: Domain, source: ImportSource): Promise<boolean> {
  const pending = new Map<Section, string[]>();
  const taken = async (section: Section, ids: string[]) =>
    (await domain.store.transfer.countExisting(section.shape, ids)) > 0;
  for await (const item of source.lines()) {
    if (item.error !== undefined) continue;
    const record = item.value as { kind?: unknown; data?: { id?: unknown } } | null;
    const section = typeof record?.kind === 'string' ? sectionOf.get(record.kind) : undefined;
    const id = record?.data?.id;
    if (!section || typeof id !== 'string' || !('id' in section.shape.columns)) continue;
    const ids = pending.get(section) ?? [];
    pending.set(section, ids);
    ids.push(id);
    if (ids.length >= ID_BATCH) {
      if (await taken(section, ids)) return true;
      pending.set(section, []);
    }
  }
  for (const [section, ids] of pending) if (ids.length > 0 && (await taken(section, ids))) return true;
  return false;
}

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
