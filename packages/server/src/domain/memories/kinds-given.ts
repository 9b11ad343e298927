import type { Memory } from '../../model.js';
import { statementOf, VALUE_KINDS, type ValueKind } from './supersession/statement.js';
import { frequenciesOf } from './frequency.js';
import { KeptByContent } from './kept-by-content.js';

/**
 * The kinds of value a memory gives (a date, a number or a frequency, a name), read from its statement; none
 * for a question, which gives no value whatever it names ("Can everyone review it by Friday?").
 * Reading a long memory's statement costs about a millisecond, and a brain's searches meet the
 * same memories again, so what each gives is kept by id with its content (KeptByContent), at
 * most KEPT_CHARS of it.
 */
const KEPT_CHARS = 4_000_000;

const kept = new KeptByContent<ReadonlySet<ValueKind>>(KEPT_CHARS);

export function kindsGiven(memory: Pick<Memory, 'id' | 'content'>): ReadonlySet<ValueKind> {
  return kept.get(memory, (content) => {
    const { values, question } = statementOf(content);
    const kinds = new Set(question ? [] : VALUE_KINDS.filter((kind) => values[kind].size > 0));
    // How often is a number too: "every two weeks", "weekly" answer "how often" as "twice" does.
    if (!question && frequenciesOf(content).length > 0) kinds.add('number');
    return kinds;
  });
}
