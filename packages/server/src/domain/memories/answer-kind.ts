import type { Memory } from '../../model.js';
import type { ValueKind } from './supersession/statement.js';
import { kindsGiven } from './kinds-given.js';
import type { BrainLengths } from './length-norm.js';

/**
 * A question that asks for a kind of value — when (a date or a time), how much or how many (a
 * number), where or who or what something is called (a name) — is answered by a memory that
 * gives a value of that kind: "What is the launch date?" by "the launch moves to Wednesday
 * April 23", not by "Not at launch, maybe later" though that one is shorter. Such a memory's
 * relevance is raised by this share. The kinds are the values supersession reads (design §6.1).
 */
export const ANSWER_KIND_SHARE = 0.3;

const ASKS: [RegExp, ValueKind[]][] = [
  [
    /\b(when|what (day|date|time|year|month)|which (day|date|year|month)|dates?|deadline|what time)\b/,
    ['date', 'number'],
  ],
  [/\bhow (many|much|long|old|often|far|big)\b|\b(price|cost|costs|amount|budget|salary)\b/, ['number']],
  [/\b(where|which (city|country|place|town))\b/, ['name']],
  [/\b(who|called|named)\b/, ['name']],
];

/** The kinds of value a query asks for; empty when it asks for none. */
export function askedKinds(query: string): Set<ValueKind> {
  const text = query.toLowerCase();
  const kinds = new Set<ValueKind>();
  for (const [pattern, gives] of ASKS) if (pattern.test(text)) for (const kind of gives) kinds.add(kind);
  return kinds;
}

/**
 * The raise of a memory that gives an asked kind of value: less for one longer than the brain's
 * mean, normalised as a neighbour's lift is (ranking.ts, with b²): a long memory holds some
 * date, number or name by chance (an assistant's long answer holds several), a short one that
 * holds one gives it.
 */
function raiseOf(memory: Memory, { b, meanChars }: BrainLengths): number {
  const lb = b * b;
  return ANSWER_KIND_SHARE / Math.max(1, 1 - lb + (lb * memory.content.length) / meanChars);
}

/**
 * Raises the relevance of the hits that give a value the query asks for, and sorts them again.
 * `hits` come best first; only those that can reach the first `page` once raised are read (a
 * statement of a long memory costs about a millisecond to read, kinds-given.ts keeps what each gives), the
 * others keep their place.
 */
export function answerKindFirst<T extends { memory: Memory; relevance: number }>(
  query: string,
  hits: T[],
  page: number,
  lengths: BrainLengths,
): T[] {
  const kinds = askedKinds(query);
  if (kinds.size === 0 || hits.length === 0) return hits;
  // A hit below this stays below the page's last, raised or not.
  const floor = hits.length > page ? (hits[page - 1] as T).relevance / (1 + ANSWER_KIND_SHARE) : -Infinity;
  const raised = hits.map((hit) => {
    if (hit.relevance < floor) return hit;
    const given = kindsGiven(hit.memory);
    const answers = [...kinds].some((kind) => given.has(kind));
    return answers ? { ...hit, relevance: hit.relevance * (1 + raiseOf(hit.memory, lengths)) } : hit;
  });
  return raised.sort((a, b) => b.relevance - a.relevance);
}
