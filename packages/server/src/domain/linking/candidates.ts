import { setImmediate } from 'node:timers/promises';
import type { Snapshot } from '../../model.js';
import type { Domain } from '../context.js';
import { parseQuery, type ParsedQuery } from '../search/query.js';
import { namedThings } from './named-things.js';
import { wordSet } from './resemblance.js';
import { LINK_RULES } from './rules.js';

/** What the rules read of a snapshot. */
export interface CandidateText {
  id: string;
  name: string;
  core: string;
  one_liner: string | null;
  tags: string[];
}

/** What the search for a snapshot's candidates reads of it. */
export type SearchedFields = Pick<Snapshot, 'name' | 'tags' | 'one_liner' | 'core' | 'brain_id'>;

/**
 * A snapshot as the pair rules (rules.ts) compare it, worked out once rather than once per pair:
 * a run's 50 insights meet 25 candidates each and 1,225 pairs among themselves.
 */
export interface Side extends CandidateText {
  /** Distinctive words of name, one_liner, tags and core (the text part of the score). */
  words: Set<string>;
  /** The words of core and one_liner, lower case, in order: where another's name is looked for. */
  tokens: string[];
  /** The words of the name, lower case, or null when no text can name it (too short, or stop words alone). */
  nameWords: string[] | null;
}

const WORD = /[\p{L}\p{N}]+/gu;
/**
 * Searches of one run at once: each is several queries at once (a word frequency each), and
 * PostgreSQL's pool (DATABASE_POOL_MAX, 10) serves every other request too.
 */
const SEARCHES_AT_ONCE = 2;

export function sideOf(text: CandidateText): Side {
  const nameWords = text.name.toLowerCase().match(WORD);
  // A name of stop words alone ("The", "Of the") is named by almost any text.
  const nameable =
    nameWords !== null &&
    nameWords.join(' ').length >= LINK_RULES.mentionMinLength &&
    parseQuery(text.name).terms.length > 0;
  return {
    id: text.id,
    name: text.name,
    core: text.core,
    one_liner: text.one_liner,
    tags: text.tags,
    words: wordSet([text.name, text.one_liner ?? '', text.tags.join(' '), text.core].join('\n')),
    tokens: [text.core, text.one_liner ?? ''].join(' ').toLowerCase().match(WORD) ?? [],
    nameWords: nameable ? nameWords : null,
  };
}

/**
 * The brain's best text matches for snapshots, and the rows of candidates, read once per run.
 * A crystallize run asks the same questions twice: its near-duplicate check wants each insight's
 * 5 best matches, its linker the 26 best of the same words in the same brain; one search of 26
 * answers both, because both stores order matches completely (relevance, then newest, then id),
 * so the 5 best are the first 5 of the 26. Candidates recur from insight to insight, so each row
 * is read and worked out once. Made per run: a later run must see the brain as it is then.
 */
export class CandidateSearch {
  private readonly matches = new Map<string, Promise<string[]>>();
  private readonly namers = new Map<string, Promise<Map<string, string>>>();
  private readonly sides = new Map<string, Side>();
  private searching = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly domain: Domain,
    private readonly brainId: string,
  ) {}

  /**
   * The ids of the brain's LINK_RULES.candidates + 1 best text matches for the snapshot's
   * distinctive words, best first (the snapshot itself among them when it is stored).
   */
  bestMatches(snapshot: SearchedFields, stored: boolean): Promise<string[]> {
    const key = JSON.stringify([stored, snapshot.name, snapshot.tags, snapshot.one_liner, snapshot.core]);
    let found = this.matches.get(key);
    if (found === undefined) {
      found = this.inTurn(async () => {
        const query = await distinctiveQuery(this.domain, snapshot, stored);
        return this.domain.store.search.bestMatchIds(this.brainId, query, LINK_RULES.candidates + 1);
      });
      this.matches.set(key, found);
    }
    return found;
  }

  /**
   * The other snapshots of the brain that name a rare thing this one names (named-things.ts),
   * each with the thing as this one writes it: of its things whose rarest word some other
   * snapshot holds, the LINK_RULES.sharedNamesSearched rarest, each searched as a phrase, and
   * kept when at most LINK_RULES.sharedNameMaxNamedBy snapshots, this one included, name it.
   * Bounded: a thing whose every word is in LINK_RULES.sharedNameCommonAt snapshots or more is
   * not searched.
   */
  namingTheSame(snapshot: SearchedFields & { id: string }, stored: boolean): Promise<Map<string, string>> {
    const key = JSON.stringify([stored, snapshot.id, snapshot.name, snapshot.one_liner, snapshot.core]);
    let found = this.namers.get(key);
    if (found === undefined) {
      found = this.inTurn(() => this.searchNamers(snapshot, stored));
      this.namers.set(key, found);
    }
    return found;
  }

  /** The candidates among `ids` that are in the brain, as the rules compare them. */
  async sidesOf(ids: string[]): Promise<Map<string, Side>> {
    const unread = ids.filter((id) => !this.sides.has(id));
    const rows = await this.domain.store.search.snapshotsIn({ brainId: this.brainId }, unread);
    for (const row of rows) this.sides.set(row.id, sideOf(JSON.parse(row.json) as CandidateText));
    const found = new Map<string, Side>();
    for (const id of ids) {
      const side = this.sides.get(id);
      if (side !== undefined) found.set(id, side);
    }
    return found;
  }

  private async searchNamers(snapshot: SearchedFields & { id: string }, stored: boolean) {
    // Runs of capitalised words end at a mark: the name's words do not run into the core's.
    const things = namedThings([snapshot.name, snapshot.one_liner ?? '', snapshot.core].join(' . '));
    const namers = new Map<string, string>();
    if (things.length === 0) return namers;
    // The words that can be counted (stop words are not searched): a name is as rare as its rarest.
    const counted = things.map((thing) => ({ thing, words: parseQuery(thing.words.join(' ')).terms }));
    // Counted to commonAt, as distinctiveQuery counts the same words: one count for both.
    const frequency = await this.domain.store.search.documentFrequencies(
      this.brainId,
      [...new Set(counted.flatMap(({ words }) => words))],
      LINK_RULES.commonAt,
    );
    const heldElsewhere = stored ? 2 : 1;
    const rarest = counted
      .map(({ thing, words }) => ({ thing, n: Math.min(...words.map((word) => frequency.get(word) ?? 0)) }))
      .filter(({ n }) => n >= heldElsewhere && n < LINK_RULES.sharedNameCommonAt)
      .sort((a, b) => a.n - b.n)
      .slice(0, LINK_RULES.sharedNamesSearched);
    for (const { thing } of rarest) {
      const ids = await this.domain.store.search.holdersOf(
        this.brainId,
        thing.words,
        LINK_RULES.sharedNameMaxNamedBy + 1,
      );
      const others = ids.filter((id) => id !== snapshot.id);
      if (others.length + 1 > LINK_RULES.sharedNameMaxNamedBy) continue;
      for (const id of others) if (!namers.has(id)) namers.set(id, thing.text);
    }
    return namers;
  }

  /**
   * A run searches once per insight, thousands for a long document: a few at a time, or
   * PostgreSQL's pool is drained and its waiters time out; and since SQLite answers
   * synchronously, a turn of the event loop before each lets other requests in between.
   */
  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    await this.turn();
    try {
      await setImmediate();
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.searching--;
    }
  }

  /** Waits for one of SEARCHES_AT_ONCE places; a finished search hands its place on. */
  private async turn(): Promise<void> {
    if (this.searching < SEARCHES_AT_ONCE) {
      this.searching++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}

/**
 * The words a snapshot's candidates are searched with: its rarest words (store.search's
 * documentFrequencies) that some other snapshot has, at most LINK_RULES.queryWords, name and tag
 * words first among equally rare ones. Words in LINK_RULES.commonAt snapshots or more are left
 * out when any rarer word is left, and only LINK_RULES.commonQueryWords are kept when none is:
 * they match most of a large brain and weigh almost nothing in BM25, yet every match must be
 * ranked (on made-up Zipf text at 100,000 snapshots, the longest
 * words instead of the rarest matched most of the brain: 300–600 ms a suggestion).
 *
 * `stored`: whether the snapshot is in the index itself (then a word found once is found in no
 * other snapshot); snapshots about to be written by a crystallize run or an ingestion are not.
 */
export async function distinctiveQuery(domain: Domain, snapshot: SearchedFields, stored = true): Promise<ParsedQuery> {
  const words = (text: string) => parseQuery(text.replaceAll('"', ' ')).terms;
  const named = words(`${snapshot.name} ${snapshot.tags.join(' ')}`);
  const rest = words(`${snapshot.one_liner ?? ''} ${snapshot.core}`).filter((word) => !named.includes(word));
  const all = [...named, ...rest];
  const rarestBy = async (cap: number) => {
    const frequency = await domain.store.search.documentFrequencies(snapshot.brain_id, all, cap);
    return rarestFirst(all, frequency, stored).slice(0, LINK_RULES.queryWords);
  };
  const rarest = await rarestBy(LINK_RULES.commonAt);
  const uncommon = rarest.filter((w) => w.n < LINK_RULES.commonAt);
  if (uncommon.length > 0) return termsQuery(uncommon);
  // Every word is common (a large brain): counted further, the rarest few.
  return termsQuery((await rarestBy(LINK_RULES.commonCountedTo)).slice(0, LINK_RULES.commonQueryWords));
}

interface CountedWord {
  word: string;
  /** Its place in the snapshot: name and tag words first. */
  i: number;
  /** Snapshots that have it, counted up to a cap. */
  n: number;
}

/**
 * The words, rarest first, and among equally rare ones name and tag words first. Words no other
 * snapshot has go last rather than out: the frequencies are cached for a minute, so a word only
 * just written elsewhere may still count 0 here.
 */
function rarestFirst(words: string[], frequency: Map<string, number>, stored: boolean): CountedWord[] {
  const others = (w: CountedWord) => (stored ? w.n - 1 : w.n);
  return words
    .map((word, i) => ({ word, i, n: frequency.get(word) ?? 0 }))
    .sort((a, b) => Number(others(a) <= 0) - Number(others(b) <= 0) || a.n - b.n || a.i - b.i);
}

const termsQuery = (words: CountedWord[]): ParsedQuery => ({
  terms: words.map((w) => w.word),
  prefixes: [],
  phrases: [],
});
