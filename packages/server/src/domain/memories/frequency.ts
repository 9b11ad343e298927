import { stem } from '../../porter2.js';

/** Number words, by their value (index): "every two weeks". */
const COUNT_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const EVERY =
  /\b(?:every|each)\s+(other\s+)?(?:(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?(day|week|month|year)s?\b/gi;
const TIMES =
  /\b(once|twice|(\d+|two|three|four|five|six|seven|eight|nine|ten)\s+times)\s+(?:a|an|per|every)\s+(day|week|month|year)\b/gi;
const ADVERB: Record<string, string> = {
  daily: '1/1 day',
  weekly: '1/1 week',
  biweekly: '1/2 week',
  fortnightly: '1/2 week',
  monthly: '1/1 month',
  yearly: '1/1 year',
  annually: '1/1 year',
};
const countOf = (word: string | undefined, otherwise: number) => {
  if (word === undefined) return otherwise;
  const spelled = COUNT_WORDS.indexOf(word.toLowerCase());
  return spelled > 0 ? spelled : Number(word) || otherwise;
};

/**
 * How often a sentence says something happens, as "times/every n unit": "every two weeks" and
 * "every other week" are 1/2 week, "every week", "once a week" and "weekly" 1/1 week, "twice a
 * month" 2/1 month. A frequency is a value as a number is: "every two weeks", later "every
 * week", restates how often.
 */
export function frequenciesOf(sentence: string): string[] {
  const out: string[] = [];
  for (const m of sentence.matchAll(EVERY)) {
    const every = m[1] ? 2 : countOf(m[2], 1);
    out.push(`1/${every} ${(m[3] as string).toLowerCase()}`);
  }
  for (const m of sentence.matchAll(TIMES)) {
    const once = (m[1] as string).toLowerCase();
    const times = once === 'once' ? 1 : once === 'twice' ? 2 : countOf(m[2], 1);
    out.push(`${times}/1 ${(m[3] as string).toLowerCase()}`);
  }
  for (const word of sentence.toLowerCase().split(/[^a-z]+/)) {
    const rate = ADVERB[word];
    if (rate) out.push(rate);
  }
  return out;
}

/** "How often", "how frequently": a question that asks for a frequency. */
const ASKS_RATE = /\bhow\s+(often|frequently)\b/gi;

/**
 * The words of a query that ask how often ("often" in "How often do I see Dr. Smith?"), as
 * stems. A sentence that gives a frequency answers them without saying them ("I see Dr. Smith
 * every week"), and says them for restated.ts. Only a frequency does: it says nothing but how
 * often, while a number or a date answers many questions ("ten years ago" is no answer to "how
 * long have I had these friends").
 */
export function rateAskingWords(query: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.matchAll(ASKS_RATE)) out.add(stem((m[1] as string).toLowerCase()));
  return out;
}
