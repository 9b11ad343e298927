import type { Memory } from '../../model.js';
import { forEachStem } from '../../memory-words.js';
import { stem } from '../../porter2.js';
import { occursAfter } from './supersession/arrival.js';
import { STATEMENT_MAX_CHARS } from './supersession/rules.js';
import { statementOf, VALUE_KINDS } from './supersession/statement.js';
import { frequenciesOf, rateAskingWords } from './frequency.js';
import { KeptByContent } from './kept-by-content.js';

/**
 * Design §6.1 read at query time. A fact restated with another value ("I've added 17 new
 * postcards since I started collecting again", months later "… 25 new postcards since I
 * started collecting again") is often said inside a longer turn that also asks or says other
 * things, where the write-time rules (supersession/rules.ts) cannot tell what the turn is about
 * and link nothing. The query says what it is about: two memories of one speaker whose
 * sentences that say most of the query both say at least half of it, the later with a value
 * of a kind replaced (one the earlier did not give, and one it gave no longer), state one fact
 * at two times, and the later states what holds now. It ranks first of them, in the place of the best of them; the others keep their order
 * below it. Nothing is stored: a question about another part of the turns links nothing.
 * A frequency says the query's "how often", and a name the query gives must be said by both
 * sentences or by neither (focusOf, restates).
 */
export const RESTATED = {
  /** The best hits compared (a later version ranked lower than this is not looked for). */
  reach: 20,
  /**
   * How much of the query the two sentences must both say: the IDF of the query words both
   * hold, over the IDF of all the query's words. Half: both say what the question is about,
   * not one of its words each.
   */
  sameQuery: 0.5,
} as const;

/** Abbreviations whose full stop ends no sentence ("Dr. Smith"). */
const ABBREVIATION = /\b(?:dr|mr|mrs|ms|st|jr|sr|prof|vs|etc|approx|e\.g|i\.e)\.$/i;

/** A text's sentences: ends at . ! ? followed by a space, and at a line's end. */
export function sentencesOf(content: string): string[] {
  const out: string[] = [];
  for (const line of content.split(/\n+/)) {
    let current = '';
    for (const piece of line.split(/(?<=[.!?])\s+/)) {
      current = current === '' ? piece : `${current} ${piece}`;
      // Only the end can be an abbreviation: testing the tail keeps a long text's split linear.
      if (!ABBREVIATION.test(current.slice(-8))) {
        out.push(current);
        current = '';
      }
    }
    if (current !== '') out.push(current);
  }
  return out.filter((s) => s.trim() !== '');
}

/**
 * Number words a statement of how many or how often uses ("every two weeks"); not "one", as
 * often a pronoun ("this one") as a number.
 */
const NUMBER_WORDS = new Set(
  'two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred once twice'.split(' '),
);
/** The pronoun I is written with a capital wherever it stands: it names no one. */
const PRONOUN_I = /^i(?:'(?:m|ve|d|ll))?$/;

/**
 * Words that pick which version a question means ("my current status", "my previous tutor",
 * "my most recent visit"), not what it is about: two statements of one fact at two times need
 * not share them, so they leave the share of the query both must say. Stems.
 */
const WHEN_WORDS = new Set(
  'current currently now previous previously latest recent recently last still before after ago earlier later first today'
    .split(' ')
    .map(stem),
);

interface Focus {
  /** The query's stems the sentence holds. */
  terms: Set<string>;
  /** Its values by kind (numbers, dates, names), the query's own words left out. */
  values: Map<string, Set<string>>;
}

/** A sentence as read once: its stems, and (when first needed) its values, each with its stems. */
interface SentenceRead {
  text: string;
  stems: Set<string>;
  /** Whether it gives a frequency ("every two weeks"). */
  rate: boolean;
  values?: Map<string, { value: string; stems: string[] }[]>;
}

/**
 * Each memory's sentences as read, kept by id with its content (KeptByContent), as
 * kinds-given.ts keeps what kinds of value a memory gives: a brain's searches meet the same
 * memories again, and reading them is most of what this step costs. At most KEPT_CHARS of
 * content.
 */
const KEPT_CHARS = 2_000_000;
const kept = new KeptByContent<SentenceRead[]>(KEPT_CHARS);

const stemsOf = (text: string): string[] => {
  const out: string[] = [];
  forEachStem({ content: text, speaker: null, tags: [] }, (s) => out.push(s));
  return out;
};

function sentencesRead(memory: Pick<Memory, 'id' | 'content'>): SentenceRead[] {
  return kept.get(memory, (content) =>
    sentencesOf(content).map((text) => ({ text, stems: new Set(stemsOf(text)), rate: frequenciesOf(text).length > 0 })),
  );
}

/** The values a sentence gives, by kind: its statement's, number words and frequencies; none for a question. */
function valuesOf(sentence: SentenceRead): Map<string, { value: string; stems: string[] }[]> {
  if (sentence.values) return sentence.values;
  const read = statementOf(sentence.text);
  const values = new Map<string, { value: string; stems: string[] }[]>();
  // A question states no value, whatever it names ("Can everyone review it by Friday?"), as for the rules.
  sentence.values = values;
  if (read.question) return values;
  const add = (kind: string, value: string) =>
    values.set(kind, [...(values.get(kind) ?? []), { value, stems: stemsOf(value) }]);
  for (const kind of VALUE_KINDS) for (const v of read.values[kind]) if (!PRONOUN_I.test(v)) add(kind, v);
  for (const w of sentence.text.toLowerCase().split(/[^a-z]+/)) if (NUMBER_WORDS.has(w)) add('number', w);
  for (const rate of frequenciesOf(sentence.text)) add('number', rate);
  return values;
}

/** A memory's sentence that says most of the query, and the query's stems it holds. */
interface BestSentence {
  sentence: SentenceRead;
  terms: Set<string>;
}

/**
 * The sentence of a memory that says most of the query (by the IDF of the query words it
 * holds); undefined when no sentence holds a query word, or the best says less than `least` of
 * the query (without its WHEN_WORDS): it could restate nothing. A sentence that gives a
 * frequency says the words of the query that ask how often (`asking`, frequency.ts's
 * rateAskingWords): "I see Dr. Smith every week" says the "often" of "How often do I see Dr.
 * Smith?".
 */
function bestSentenceOf(
  memory: Pick<Memory, 'id' | 'content'>,
  weights: ReadonlyMap<string, number>,
  least: number,
  asking: ReadonlySet<string>,
): BestSentence | undefined {
  let best: { sentence: SentenceRead; terms: Set<string>; weight: number } | undefined;
  for (const sentence of sentencesRead(memory)) {
    const terms = new Set<string>();
    let weight = 0;
    for (const [t, w] of weights) {
      if (w > 0 && sentence.stems.has(t)) {
        terms.add(t);
        weight += w;
      }
    }
    if (weight > 0 && sentence.rate) {
      for (const t of asking) {
        const w = weights.get(t) ?? 0;
        if (w > 0 && !terms.has(t)) {
          terms.add(t);
          weight += w;
        }
      }
    }
    if (weight > 0 && (!best || weight > best.weight)) best = { sentence, terms, weight };
  }
  if (!best) return undefined;
  let said = 0;
  for (const t of best.terms) if (!WHEN_WORDS.has(t)) said += weights.get(t) ?? 0;
  if (said < least) return undefined;
  return { sentence: best.sentence, terms: best.terms };
}

/** The focus of a best sentence: the values it gives; undefined when it gives none. */
function focusOfSentence({ sentence, terms }: BestSentence, weights: ReadonlyMap<string, number>): Focus | undefined {
  const values = new Map<string, Set<string>>();
  for (const [kind, given] of valuesOf(sentence)) {
    // A value the query names is what the question is about, not an answer to it.
    const kept = given.filter((v) => !v.stems.some((s) => weights.has(s))).map((v) => v.value);
    if (kept.length > 0) values.set(kind, new Set(kept));
  }
  if (values.size === 0) return undefined;
  return { terms, values };
}

/**
 * The sentence of a memory that says most of the query (by the IDF of the query words it
 * holds), with the values it gives; undefined when no sentence holds a query word, the best
 * gives no value, or it says less than `least` of the query (without its WHEN_WORDS): it could
 * restate nothing. `asking`: as bestSentenceOf.
 */
export function focusOf(
  memory: Pick<Memory, 'id' | 'content'>,
  weights: ReadonlyMap<string, number>,
  least = 0,
  asking: ReadonlySet<string> = NOTHING_ASKED,
): Focus | undefined {
  const best = bestSentenceOf(memory, weights, least, asking);
  return best && focusOfSentence(best, weights);
}

/**
 * Whether two foci's terms both say RESTATED.sameQuery of the query (by IDF, without its
 * WHEN_WORDS): what `restates` asks of them besides their names, before their values.
 */
function sayTheSame(a: ReadonlySet<string>, b: ReadonlySet<string>, weights: ReadonlyMap<string, number>): boolean {
  let shared = 0;
  let whole = 0;
  for (const [t, w] of weights) {
    if (WHEN_WORDS.has(t)) continue;
    whole += w;
    if (a.has(t) && b.has(t)) shared += w;
  }
  return whole !== 0 && shared / whole >= RESTATED.sameQuery;
}

const NOTHING_ASKED: ReadonlySet<string> = new Set();
const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The names a query gives, as stems: its capitalised words but the first ("How", "What") and
 * the pronoun I ("How often do I see my therapist, Dr. Smith?": dr, smith).
 */
export function namesIn(query: string): Set<string> {
  const out = new Set<string>();
  const words = query.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [];
  for (const [i, word] of words.entries()) {
    if (i === 0 || !/^[A-Z]/.test(word) || PRONOUN_I.test(word.toLowerCase())) continue;
    for (const s of stemsOf(word)) out.add(s);
  }
  return out;
}

/** Whether a later focus says what an earlier one says of the query with a value of the same kind replaced. */
export function restates(
  older: Focus,
  newer: Focus,
  weights: ReadonlyMap<string, number>,
  names: ReadonlySet<string> = NO_NAMES,
): boolean {
  // A name the question gives says whom or what the fact is about: a sentence that does not say
  // the name the other says may be about someone else ("I see Dr. Lee every month" is no later
  // "I see Dr. Okafor every two weeks"), however much of the rest of the query both say.
  for (const n of names) if ((weights.get(n) ?? 0) > 0 && older.terms.has(n) !== newer.terms.has(n)) return false;
  if (!sayTheSame(older.terms, newer.terms, weights)) return false;
  // Replaced, as the rules read a change: the later gives a value of a kind the earlier did not,
  // and no longer gives one the earlier did. A later sentence that only repeats some of the
  // earlier's values, or adds to them, restates nothing.
  for (const [kind, before] of older.values) {
    const after = newer.values.get(kind);
    if (!after) continue;
    if ([...after].some((v) => !before.has(v)) && [...before].some((v) => !after.has(v))) return true;
  }
  return false;
}

const sameSpeaker = (a: Memory, b: Memory) => (a.speaker ?? '').toLowerCase() === (b.speaker ?? '').toLowerCase();

/**
 * Puts the latest of each set of hits that restate one fact (within the first RESTATED.reach)
 * in the place of the best ranked of them, with that one's relevance; the rest keep their order.
 * `weights`: the IDF of each of the query's stems; `query`: its text (the words that ask how
 * often, frequency.ts's rateAskingWords, and the names it gives).
 */
export function latestRestatementFirst<T extends { memory: Memory; relevance: number }>(
  hits: T[],
  weights: ReadonlyMap<string, number>,
  query = '',
): T[] {
  const reach = Math.min(hits.length, RESTATED.reach);
  if (reach < 2 || weights.size === 0) return hits;
  const asking = rateAskingWords(query);
  const names = namesIn(query);
  let whole = 0;
  for (const [t, w] of weights) if (!WHEN_WORDS.has(t)) whole += w;
  const least = RESTATED.sameQuery * whole;
  // A long text (an assistant's answer, a document) says many things: as for the rules, only a
  // statement of the size of a fact restates one.
  const best = hits
    .slice(0, reach)
    .map((h) =>
      h.memory.content.length > STATEMENT_MAX_CHARS ? undefined : bestSentenceOf(h.memory, weights, least, asking),
    );
  // The values (the costly part, read once a memory) only of hits that could restate another:
  // restates() asks that both say the same share of the query, one speaker apiece.
  const focus = best.map((bi, i) => {
    if (!bi) return undefined;
    const a = (hits[i] as T).memory;
    const paired = best.some(
      (bj, j) =>
        j !== i && bj !== undefined && sameSpeaker(a, (hits[j] as T).memory) && sayTheSame(bi.terms, bj.terms, weights),
    );
    return paired ? focusOfSentence(bi, weights) : undefined;
  });
  // Groups of hits linked by restating, by union-find over the pairs.
  const parent = focus.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i] as number)));
  let linked = false;
  for (let i = 0; i < reach; i++) {
    const fi = focus[i];
    if (!fi) continue;
    for (let j = i + 1; j < reach; j++) {
      const fj = focus[j];
      if (!fj) continue;
      const a = (hits[i] as T).memory;
      const b = (hits[j] as T).memory;
      if (!sameSpeaker(a, b)) continue;
      const [older, newer] = occursAfter(b, a) ? [fi, fj] : [fj, fi];
      if (restates(older, newer, weights, names)) {
        parent[root(j)] = root(i);
        linked = true;
      }
    }
  }
  if (!linked) return hits;
  const out = [...hits];
  const groups = new Map<number, number[]>();
  for (let i = 0; i < reach; i++) {
    const r = root(i);
    groups.set(r, [...(groups.get(r) ?? []), i]);
  }
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const first = members[0] as number;
    const latest = members.reduce((x, y) => (occursAfter((hits[y] as T).memory, (hits[x] as T).memory) ? y : x));
    if (latest === first) continue;
    const moved = { ...(hits[latest] as T), relevance: (hits[first] as T).relevance };
    const from = out.indexOf(hits[latest] as T);
    out.splice(from, 1);
    out.splice(out.indexOf(hits[first] as T), 0, moved);
  }
  return out;
}
