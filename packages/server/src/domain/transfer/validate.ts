import { setImmediate } from 'node:timers/promises';
import { END_KIND, FORMAT_NAME, FORMAT_VERSION, type ExportHeader } from './format.js';
import type { SourceLine } from './jsonl-source.js';
import type { SeenRecords } from './section.js';
import { SECTIONS } from './sections/index.js';
import { referenceProblems } from './references.js';
import { SeenIds } from './seen-ids.js';
import { MAX_NESTING, prototypeKey, tooDeep } from '../nesting.js';
import { NUL_REASON, nulPath } from '../nul-text.js';
import { SURROGATE_REASON, unpairedSurrogatePath } from '../unpaired-surrogate.js';

export interface LineProblem {
  line: number;
  reason: string;
}

export interface CheckedFile {
  header: ExportHeader | undefined;
  /** The brain record, when the file has a valid one. */
  brain: Record<string, unknown> | undefined;
  /** Lines (GraphML: elements) in the file, header and end line included. */
  items: number;
  /** The first PROBLEMS_KEPT problems, in the file's order. */
  problems: LineProblem[];
  /** How many lines have a problem, all of them counted. */
  badLines: number;
}

/**
 * Problems kept for the report. Every line is still checked and counted, but a file of millions
 * of bad lines (a 256 MiB upload of blank lines) must not keep one object per line: the job's
 * error names the first 100 lines, the CLI prints these.
 */
export const PROBLEMS_KEPT = 1_000;

/** Lines checked between two turns of the event loop (about 5 ms of blank or bad lines). */
const LINES_PER_TURN = 2_000;

const BRAIN_ID = /^brain_[0-9A-Za-z]{10,64}$/;
const sectionIndex = new Map(SECTIONS.map((section, index) => [section.kind, index]));

function headerProblem(value: unknown): string | undefined {
  const header = value as Partial<ExportHeader> | null;
  if (typeof header !== 'object' || header === null || header.format !== FORMAT_NAME) {
    return `the first line is not a ${FORMAT_NAME} header: this is not a Snapgraph export`;
  }
  if (!Number.isInteger(header.version) || (header.version as number) < 1) return 'the header has no valid version';
  if ((header.version as number) > FORMAT_VERSION) {
    return `format version ${header.version} is newer than this snapgraph reads (${FORMAT_VERSION}): upgrade snapgraph to import it`;
  }
  if (typeof header.brain_id !== 'string' || !BRAIN_ID.test(header.brain_id)) return 'the header has no valid brain_id';
  return undefined;
}

/**
 * The first pass of an import: every line is checked — the header, each record against its
 * section's rules, references between records, the order of sections, the end line's counts —
 * before anything is written. Every problem is reported with its line; a file with any is not
 * imported at all. Memory stays flat but for the records' ids (SeenIds).
 */
export async function checkFile(
  lines: AsyncIterable<SourceLine>,
  options: { refuseNul?: boolean } = {},
): Promise<CheckedFile> {
  const problems: LineProblem[] = [];
  let badLines = 0;
  let lastBadLine: number | undefined;
  // Lines come in order, so a line already counted is the last one, or (the checks at the end of
  // the file name line 2) one of the first few, which are all kept.
  const counted = new Set<number>();
  const report = (line: number, reason: string) => {
    if (line !== lastBadLine && !counted.has(line)) badLines++;
    lastBadLine = line;
    if (counted.size < PROBLEMS_KEPT) counted.add(line);
    if (problems.length < PROBLEMS_KEPT) problems.push({ line, reason });
  };
  const ids = new SeenIds();
  // A memory names the memory that replaced it (design §6.1), which may come later in the file.
  const memoryIds = new SeenIds();
  const memoryRefs: { line: number; id: string }[] = [];
  const counts: Record<string, number> = {};
  let header: ExportHeader | undefined;
  let brain: Record<string, unknown> | undefined;
  let endLine: number | undefined;
  let current = -1;
  let last = 0;
  let items = 0;
  const seen: SeenRecords = {
    brainId: '',
    has: (id) => ids.has(id),
    addMemory: (id) => memoryIds.add(id),
    needsMemory: (id) => memoryRefs.push({ line: last, id }),
  };
  for await (const item of lines) {
    last = item.line;
    items++;
    // One chunk of the file is a quarter million lines at most (blank ones), handed over without
    // a turn of the event loop in between: other requests waited a second a chunk.
    if (items % LINES_PER_TURN === 0) await setImmediate();
    const problem = (reason: string) => report(item.line, reason);
    if (item.error !== undefined) {
      problem(item.error);
      continue;
    }
    // The first item, not line 1: a GraphML file on one line has its brain on line 1 too.
    if (items === 1) {
      const wrong = headerProblem(item.value);
      if (wrong !== undefined) {
        problem(wrong);
        // A file of another format or a newer version: its lines cannot be judged by these rules.
        return { header: undefined, brain: undefined, items, problems, badLines };
      }
      header = item.value as ExportHeader;
      seen.brainId = header.brain_id;
      continue;
    }
    if (endLine !== undefined) {
      problem(`a line after the end line (line ${endLine})`);
      continue;
    }
    const record = item.value as { kind?: unknown; data?: unknown; counts?: unknown } | null;
    if (typeof record !== 'object' || record === null || typeof record.kind !== 'string') {
      problem('not a record: expected {"kind": …, "data": …}');
      continue;
    }
    if (record.kind === END_KIND) {
      endLine = item.line;
      const expected = (typeof record.counts === 'object' && record.counts !== null ? record.counts : {}) as Record<
        string,
        unknown
      >;
      // Own keys only: `{"__proto__": 1}` counts nothing of Object's (it read "[object Object]").
      const claimed = (kind: string) => (Object.hasOwn(expected, kind) ? expected[kind] : 0);
      for (const kind of new Set([...Object.keys(expected), ...Object.keys(counts)])) {
        const found = Object.hasOwn(counts, kind) ? counts[kind] : 0;
        if (claimed(kind) !== found) {
          problem(`the end line counts ${JSON.stringify(claimed(kind))} ${kind} records, the file has ${found}`);
        }
      }
      continue;
    }
    const index = sectionIndex.get(record.kind);
    if (index === undefined) {
      problem(`unknown kind "${record.kind}" (known: ${SECTIONS.map((s) => s.kind).join(', ')})`);
      continue;
    }
    counts[record.kind] = (counts[record.kind] ?? 0) + 1;
    if (index < current) {
      problem(`a ${record.kind} record after the ${SECTIONS[current]?.kind} records: sections must come in order`);
      continue;
    }
    current = index;
    if (record.kind === 'brain' && counts.brain !== 1) {
      problem('a second brain record');
      continue;
    }
    if (record.kind !== 'brain' && counts.brain === undefined) {
      problem('a record before the brain record');
      continue;
    }
    // Before any check that recurses, and the API's own refusals of what JSON.parse lets by.
    const deep = tooDeep(record.data, MAX_NESTING - 1);
    if (deep !== undefined) {
      problem(`${record.kind}: ${deep} is nested more than ${MAX_NESTING} levels deep`);
      continue;
    }
    const poison = prototypeKey(record.data);
    if (poison !== undefined) {
      problem(`${record.kind}: ${poison} is not allowed as a field name, at any depth`);
      continue;
    }
    // What this server's store cannot keep (domain/nul-text.ts): the line, not the database, says so.
    const nul = options.refuseNul ? nulPath(record.data) : undefined;
    if (nul !== undefined) {
      problem(`${record.kind}: ${nul} ${NUL_REASON}`);
      continue;
    }
    const section = SECTIONS[index]!;
    const lone = unpairedSurrogatePath(record.data);
    if (lone !== undefined) {
      problem(`${record.kind}: ${lone} ${SURROGATE_REASON}`);
      continue;
    }
    const reasons = section.check(record.data, seen);
    if (reasons.length === 0 && section.references) {
      reasons.push(...referenceProblems(record.data as Record<string, unknown>, section.references, seen));
    }
    // Known even when the record is bad, so the records naming it are not reported as well.
    const id = (record.data as { id?: unknown } | null)?.id;
    if (typeof id === 'string') ids.add(id);
    for (const reason of reasons) problem(`${record.kind}: ${reason}`);
    if (record.kind === 'brain' && reasons.length === 0) brain = record.data as Record<string, unknown>;
  }
  for (const ref of memoryRefs) {
    if (!memoryIds.has(ref.id)) report(ref.line, `memory: superseded_by ${ref.id} is not a memory of this file`);
  }
  if (last === 0) report(1, 'the file is empty');
  else if (header !== undefined && endLine === undefined) {
    report(last + 1, 'the file ends without its end line: it was cut short (an interrupted copy or download?)');
  }
  if (header !== undefined && counts.brain === undefined) report(2, 'the file has no brain record');
  return { header, brain, items, problems, badLines };
}
