import type { Memory } from '../../../model.js';
import { statementOf, VALUE_KINDS, type Statement } from './statement.js';

/**
 * The built-in rules of design §6.1: whether a newer memory restates an older one's fact with
 * another value. A fact is a short statement; a long text (an assistant's answer, a document)
 * says many things, and two of them sharing words say nothing about one replacing the other.
 */
export const STATEMENT_MAX_CHARS = 400;
/**
 * How much of a subject two clauses share, at least: half. Without a correction cue, half of
 * the larger one — "review the launch checklist by Friday" is not about "we launch on Monday"
 * though both say launch; after a cue ("move the launch to…"), half of the smaller, since a
 * correction names only as much of the subject as it needs.
 */
export const SAME_SUBJECT = 0.5;

/** The largest share of subject two clauses of `a` and `b` have in common (of the larger clause, or the smaller). */
export function subjectOverlap(a: Statement, b: Statement, ofSmaller = false): number {
  let best = 0;
  for (const x of a.clauses) {
    for (const y of b.clauses) {
      let shared = 0;
      for (const word of x) if (y.has(word)) shared++;
      const size = ofSmaller ? Math.min(x.size, y.size) : Math.max(x.size, y.size);
      best = Math.max(best, shared / size);
    }
  }
  return best;
}

const hasValues = (s: Statement) => VALUE_KINDS.some((kind) => s.values[kind].size > 0);

/** Values of some kind that the older gave and the newer replaced (or, after a correction cue, merely added). */
function valueChanged(older: Statement, newer: Statement): boolean {
  for (const kind of VALUE_KINDS) {
    const before = older.values[kind];
    const after = newer.values[kind];
    const added = [...after].some((v) => !before.has(v));
    const dropped = [...before].some((v) => !after.has(v));
    if (added && (dropped || (newer.correction && before.size > 0))) return true;
  }
  return false;
}

/**
 * Whether `newer` supersedes `older` by the rules: both short, the same subject, and a changed
 * value, or a correction that gives no value ("Tom no longer eats meat"). Two people each
 * speaking of themselves ("I live in Paris", "I live in Berlin") are two subjects.
 */
export function supersedesByRules(
  older: Pick<Memory, 'content' | 'speaker'>,
  newer: Pick<Memory, 'content' | 'speaker'>,
  read: (memory: Pick<Memory, 'content'>) => Statement = (m) => statementOf(m.content),
): boolean {
  if (older.content.length > STATEMENT_MAX_CHARS || newer.content.length > STATEMENT_MAX_CHARS) return false;
  const a = read(older);
  const b = read(newer);
  if (a.firstPerson && b.firstPerson && older.speaker !== null && newer.speaker !== null) {
    if (older.speaker.toLowerCase() !== newer.speaker.toLowerCase()) return false;
  }
  if (subjectOverlap(a, b, b.correction) < SAME_SUBJECT) return false;
  return valueChanged(a, b) || (b.correction && !a.correction && !hasValues(b));
}
