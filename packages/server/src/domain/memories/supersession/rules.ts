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

/** The largest share of subject two clauses have in common (of the larger clause, or the smaller). */
export function subjectOverlap(a: Statement, b: Statement, ofSmaller = false, clausesOf = allClauses): number {
  let best = 0;
  for (const x of clausesOf(a)) {
    for (const y of clausesOf(b)) {
      let shared = 0;
      for (const word of x) if (y.has(word)) shared++;
      const size = ofSmaller ? Math.min(x.size, y.size) : Math.max(x.size, y.size);
      best = Math.max(best, shared / size);
    }
  }
  return best;
}

const allClauses = (s: Statement) => s.clauses;
const valueClauses = (s: Statement) => s.valueClauses;
const wholeSubject = (s: Statement) => [s.subject];
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
 * Whether `newer` supersedes `older` by the rules: both short statements (not questions), and
 * a changed value said of the same subject (the subjects of the clauses that give values), or a
 * negation that gives no value ("Tom no longer eats meat") of the same whole subject. Two people each
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
  // A question states no value, so it neither replaces nor is replaced.
  if (a.question || b.question) return false;
  if (a.firstPerson && b.firstPerson && older.speaker !== null && newer.speaker !== null) {
    if (older.speaker.toLowerCase() !== newer.speaker.toLowerCase()) return false;
  }
  // A changed value: the clauses that give the values are about the same thing.
  if (valueChanged(a, b)) return subjectOverlap(a, b, b.correction, valueClauses) >= SAME_SUBJECT;
  // "Tom no longer eats meat": no value, so the whole of both must be about the same thing.
  return b.negation && !a.negation && !hasValues(b) && subjectOverlap(a, b, false, wholeSubject) >= SAME_SUBJECT;
}
