import type { Memory } from '../../model.js';
import { statementOf, VALUE_KINDS, type ValueKind } from './supersession/statement.js';
import { frequenciesOf } from './frequency.js';

/**
 * The kinds of value a memory gives (a date, a number or a frequency, a name), read from its statement; none
 * for a question, which gives no value whatever it names ("Can everyone review it by Friday?").
 * Reading a long memory's statement costs about a millisecond, and a brain's searches meet the
 * same memories again, so what each gives is kept by id, with its content to check that it is
 * still the memory read (an update changes it). At most KEPT_CHARS of content are kept; past it
 * the least lately used go.
 */
const KEPT_CHARS = 4_000_000;

interface Given {
  content: string;
  kinds: ReadonlySet<ValueKind>;
}

const kept = new Map<string, Given>();
let keptChars = 0;

export function kindsGiven(memory: Pick<Memory, 'id' | 'content'>): ReadonlySet<ValueKind> {
  const known = kept.get(memory.id);
  if (known && known.content === memory.content) {
    // Least lately used first: a hit moves to the end.
    kept.delete(memory.id);
    kept.set(memory.id, known);
    return known.kinds;
  }
  const { values, question } = statementOf(memory.content);
  const kinds = new Set(question ? [] : VALUE_KINDS.filter((kind) => values[kind].size > 0));
  // How often is a number too: "every two weeks", "weekly" answer "how often" as "twice" does.
  if (!question && frequenciesOf(memory.content).length > 0) kinds.add('number');
  keep(memory.id, { content: memory.content, kinds });
  return kinds;
}

function keep(id: string, given: Given): void {
  const before = kept.get(id);
  if (before) {
    kept.delete(id);
    keptChars -= before.content.length;
  }
  if (given.content.length > KEPT_CHARS) return;
  kept.set(id, given);
  keptChars += given.content.length;
  for (const [oldest, { content }] of kept) {
    if (keptChars <= KEPT_CHARS) break;
    kept.delete(oldest);
    keptChars -= content.length;
  }
}
