import { eng } from 'stopword';
import { stem } from '../../../porter2.js';

/**
 * A memory read as a statement (design §6.1): what it is about — its subject, the words that
 * are left when its values are taken out, stemmed — and the values it gives that subject,
 * by kind. Two statements whose subjects agree and whose values of a kind differ say the
 * same thing with another value; the words that announce a change (correction cues) say so
 * even when no value is given ("no longer").
 */
export interface Statement {
  /** The subject of each clause that has one; a value is often given in one clause of a sentence. */
  clauses: Set<string>[];
  /** The subjects of the clauses that give a value: where a value is, is what it is said of. */
  valueClauses: Set<string>[];
  /** Every clause's subject together. */
  subject: Set<string>;
  values: Record<ValueKind, Set<string>>;
  /** The text announces that it corrects or changes something said before. */
  correction: boolean;
  /** It says that something no longer holds ("no longer", "not anymore"): a change without a value. */
  negation: boolean;
  /** It speaks of its speaker in the first person singular. */
  firstPerson: boolean;
  /** It asks rather than states (it ends with a question mark). */
  question: boolean;
}

export type ValueKind = 'number' | 'date' | 'name';
export const VALUE_KINDS: readonly ValueKind[] = ['number', 'date', 'name'];

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/**
 * Month and weekday names (abbreviations too) are dates, wherever they stand. "Today" or
 * "tomorrow" name no date of their own: two memories saying "tomorrow" on two days agree on nothing.
 */
const DATE_WORDS = new Set([
  ...MONTHS,
  ...MONTHS.map((m) => m.slice(0, 3)),
  'sept',
  ...WEEKDAYS,
  ...WEEKDAYS.map((d) => d.slice(0, 3)),
]);
/** "may" is a month only when capitalised; lower case it is the verb. */
const CASE_SENSITIVE_DATES = new Set(['may', 'mar', 'sun', 'sat', 'wed']);

/**
 * Phrases that announce a change of what was said before. They carry no subject, so their
 * words leave the subject too.
 */
const CORRECTION =
  /\b(actually|no longer|not anymore|any more|anymore|instead of|instead|rather than|changed? (?:it )?to|changing to|mov(?:e|es|ed|ing) (?:\w+ ){0,4}to|switch(?:ed)? to|renam(?:ed?|ing)|postpon(?:ed?|ing)|reschedul(?:ed?|ing)|correction|is off|was wrong|not [\w']+ after all)\b/i;
const NEGATION = /\b(no longer|not anymore|not any more|stopped|quit)\b/i;
const CUE_WORDS = new Set([
  'actually',
  'longer',
  'anymore',
  'instead',
  'rather',
  'change',
  'changed',
  'changing',
  'move',
  'moved',
  'moving',
  'switch',
  'switched',
  'rename',
  'renamed',
  'renaming',
  'postpone',
  'postponed',
  'reschedule',
  'rescheduled',
  'correction',
  'off',
  'wrong',
  'now',
  'update',
  'updated',
]);
/**
 * Verbs that carry no subject of their own ("I went to the gym" and "I went to Paris" are not
 * about one thing), with the stop words.
 */
const LIGHT_WORDS = new Set([
  ...eng,
  'let',
  'lets',
  'go',
  'goes',
  'going',
  'gone',
  'went',
  'get',
  'got',
  'gets',
  'getting',
  'make',
  'made',
  'take',
  'took',
  'taken',
  'say',
  'said',
  'think',
  'thought',
  'will',
  'would',
  'shall',
  'should',
  'can',
  'could',
  'also',
  'just',
  'really',
  'yes',
  'ok',
  'okay',
  'hey',
  'hi',
  'thanks',
  'please',
  'yeah',
  'yep',
  'wow',
  'oh',
  'hello',
  'thank',
  'congrats',
  'today',
  'tomorrow',
  'yesterday',
  'tonight',
]);
const FIRST_PERSON = /\b(i|i'm|i've|i'd|i'll|me|my|mine|myself)\b/i;
const TOKEN = /\$?\d[\d,.:/-]*(?:%|st|nd|rd|th|am|pm|k|m)?|[\p{L}][\p{L}'’-]*/gu;

export function statementOf(content: string): Statement {
  const values: Record<ValueKind, Set<string>> = { number: new Set(), date: new Set(), name: new Set() };
  const subject = new Set<string>();
  const clauses: Set<string>[] = [];
  const valueClauses: Set<string>[] = [];
  // Clauses end at a sentence's end and at , : ; followed by a space (not inside 9:30 or $5,000).
  for (const clause of content.split(/[.!?;:,]+(?:\s|$)|\n/)) {
    const own = new Set<string>();
    let first = true;
    let valued = false;
    for (const match of clause.matchAll(TOKEN)) {
      const raw = match[0].replace(/[’]/g, "'").replace(/[.,:/-]+$/, '');
      if (raw === '') continue;
      if (/^\$?\d/.test(raw)) {
        values.number.add(raw.replace(/,/g, '').toLowerCase());
        valued = true;
        first = false;
        continue;
      }
      const word = raw.toLowerCase().replace(/'s$/, '');
      const capital = raw[0] !== word[0];
      if (DATE_WORDS.has(word) && (capital || !CASE_SENSITIVE_DATES.has(word))) {
        values.date.add(word.slice(0, 3));
        valued = true;
        first = false;
        continue;
      }
      if (LIGHT_WORDS.has(word) || CUE_WORDS.has(word) || word.length < 2) continue;
      const initial = first;
      first = false;
      // A capitalised word is a name; the first word a clause says anything with is its subject
      // ("Tom lives in Paris" is about Tom) or the one it is said to ("Yeah Maria, …"), not a value.
      if (capital && !initial) {
        values.name.add(word);
        valued = true;
      } else own.add(stem(word.replace(/'/g, '')));
    }
    if (own.size === 0) continue;
    clauses.push(own);
    if (valued) valueClauses.push(own);
    for (const word of own) subject.add(word);
  }
  return {
    clauses,
    valueClauses,
    subject,
    values,
    correction: CORRECTION.test(content),
    negation: NEGATION.test(content),
    firstPerson: FIRST_PERSON.test(content),
    question: content.trimEnd().endsWith('?'),
  };
}
