import type { Memory } from '../../model.js';
import type { MemoryFilters } from '../../store/memory-store.js';
import type { ParsedQuery } from '../search/query.js';
import { stem } from '../../porter2.js';
import { isBefore } from './neighbours.js';
import type { BrainLengths } from './length-norm.js';
import { bagOf, FIELD_WEIGHTS, idfOf, STOP_WORDS, type Bag } from '../../memory-words.js';

export { bagOf, forEachStem, idfOf, NO_WORDS, type Bag } from '../../memory-words.js';

/**
 * The constants of memory ranking, tuned on ../shared/memory-eval (LoCoMo, development split)
 * with `node bench/memory-quality.mjs`; docs/ranking.md says what each part bought.
 */
export const MEMORY_RANKING = {
  /**
   * Text matches read from the store's index and ranked here, on a store whose own relevance
   * weighs words by their IDF (FTS5's bm25); `poolWithoutIdf` on one whose does not
   * (PostgreSQL's ts_rank), so that the turns the ranking here puts first are among them.
   */
  pool: 30,
  poolWithoutIdf: 60,
  /**
   * Okapi BM25: a low `k1` makes a second mention of a word add little. Its `b` is the brain's
   * own, from how much its memories' lengths vary (length-norm.ts).
   */
  k1: 0.6,
  /** A word in the speaker counts twice a word in the content (questions name people); in a tag, as much. */
  speakerWeight: FIELD_WEIGHTS.speaker,
  tagWeight: FIELD_WEIGHTS.tag,
  /** Words are counted in at most this many memories: a common word costs little to count. */
  dfCap: 1000,
  /**
   * A turn gains this share of the score of the turn next to it in its session (and half as
   * much from two turns away): an answer is often the turn after the question that names it.
   */
  neighbourShare: 0.4,
  /** The part of that share a turn two places away gains. */
  secondNeighbourPart: 1,
  /** The best matches whose neighbours are read. */
  neighbourSources: 8,
  /**
   * Pseudo-relevance feedback: the words the best `feedbackDocs` matches share, up to
   * `feedbackWords` of them chosen by IDF × how many of those matches hold them, weigh
   * `feedbackWeight` × their IDF × that share in a second BM25 over the pool.
   */
  feedbackDocs: 5,
  feedbackWords: 10,
  feedbackWeight: 0.2,
} as const;

/**
 * Words that frame a question rather than say what it is about ("What kind of…", "Would she
 * likely…", "When did they mention…"): they match turns at random. Stems, as compared. Words of
 * time, frequency and amount ("recent", "often", "many") are not among them: the turn that
 * answers says them too ("my recent trip", "I see her every week").
 */
const QUESTION_WORDS = new Set(
  ['likely', 'kind', 'type', 'think', 'ever', 'something', 'thing', 'mention', 'say', 'talk', 'does', 'would'].map(
    stem,
  ),
);

export interface RankedMemory {
  memory: Memory;
  relevance: number;
  /** Whether it holds a query word (a memory brought in by its neighbour may not). */
  matchesText: boolean;
}

/** What ranking reads from the store: the brain's word statistics and the turns around the best. */
export interface RankingReads {
  termStats(terms: readonly string[]): Promise<{ size: number; df: number[] }>;
  around(anchors: readonly Memory[], n: number): Promise<Map<string, Memory[]>>;
  /**
   * A word index's own bag of a memory (the store's MemoryWordIndex), when it holds it: its stems
   * are the words of `words` too, and `stemStats` counts them (a stem stemmed again may change).
   */
  bagOf?(memory: Memory): Bag | undefined;
  stemStats?(stems: readonly string[]): { size: number; df: number[] };
}

/**
 * The query's words that ranking weighs, stemmed, each with a word of the query that the store
 * stems to it; undefined when ranking here has nothing to go on (phrases and prefixes keep the
 * store's own relevance, and a question of framing words alone does too).
 */
export function rankedTerms(query: ParsedQuery): Map<string, string> | undefined {
  if (query.phrases.length > 0 || query.prefixes.length > 0) return undefined;
  const terms = new Map<string, string>();
  for (const word of query.terms) {
    if (STOP_WORDS.has(word)) continue;
    const s = stem(word);
    if (!QUESTION_WORDS.has(s) && !terms.has(s)) terms.set(s, word);
  }
  return terms.size > 0 ? terms : undefined;
}

/**
 * Ranks the store's text matches (`pool`, best first by the store's relevance) for a query:
 * BM25 over content, speaker and tags with the brain's document frequencies and length
 * normalisation `b`, then every turn
 * near one of the best lifted by it. A
 * turn next to a strong match enters the results even without a query word, when it passes the
 * search's filters. Best first; ties keep the pool's order.
 */
export async function rankMemories(
  terms: Map<string, string>,
  pool: readonly Memory[],
  filters: MemoryFilters,
  reads: RankingReads,
  lengths: BrainLengths,
): Promise<RankedMemory[]> {
  const { b } = lengths;
  const stats = await reads.termStats([...terms.values()]);
  const weights = new Map<string, number>();
  [...terms.keys()].forEach((term, i) => weights.set(term, idfOf(stats.size, stats.df[i] ?? 0)));
  const bags = new Map(pool.map((m) => [m.id, reads.bagOf?.(m) ?? bagOf(m)]));
  const meanLength = Math.max(1, [...bags.values()].reduce((sum, bag) => sum + bag.length, 0) / Math.max(1, bags.size));
  const bm25 = (bag: Bag): number => {
    const { k1 } = MEMORY_RANKING;
    let score = 0;
    for (const [term, weight] of weights) {
      const tf = bag.counts.get(term) ?? 0;
      if (tf > 0) score += (weight * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * bag.length) / meanLength));
    }
    return score;
  };
  const queryTerms = new Set(terms.keys());
  // What counts as matching the query's text: a query word the store indexes (it weighs).
  const weighed = [...queryTerms].filter((term) => (weights.get(term) ?? 0) > 0);
  const holdsQueryTerm = (bag: Bag) => weighed.some((term) => bag.counts.has(term));

  const ranked = new Map<string, RankedMemory>();
  const score = () => {
    for (const memory of pool) {
      ranked.set(memory.id, { memory, relevance: bm25(bags.get(memory.id) as Bag), matchesText: true });
    }
  };
  score();
  const feedback = await feedbackWeights(
    queryTerms,
    [...ranked.values()].map((r) => ({ relevance: r.relevance, bag: bags.get(r.memory.id) as Bag })),
    stats.size,
    reads,
  );
  if (feedback.size > 0) {
    for (const [term, weight] of feedback) weights.set(term, weight);
    score();
  }
  await liftByNeighbours(ranked, filters, reads, bm25, holdsQueryTerm, lengths);
  return [...ranked.values()].sort((a, b) => b.relevance - a.relevance);
}

/**
 * The feedback words of a query (MEMORY_RANKING.feedback*): what the best matches share besides
 * the query's words, each with its weight. IDF from the brain's counts, so a word every turn
 * holds (a speaker's name, `really`) weighs little however often the best matches hold it.
 */
async function feedbackWeights(
  queryTerms: ReadonlySet<string>,
  scored: { relevance: number; bag: Bag }[],
  size: number,
  reads: RankingReads,
): Promise<Map<string, number>> {
  const R = MEMORY_RANKING;
  const best = scored
    .filter((s) => s.relevance > 0)
    .sort((a, b) => b.relevance - a.relevance)
    .slice(0, R.feedbackDocs);
  // Counted by the word index when it gives the bags (a stem is its own word there).
  const byStem = reads.stemStats !== undefined;
  const held = new Map<string, { word: string; docs: number }>();
  for (const { bag } of best) {
    for (const term of bag.counts.keys()) {
      if (queryTerms.has(term)) continue;
      const h = held.get(term);
      if (h) h.docs++;
      else held.set(term, { word: byStem ? term : (bag.words.get(term) as string), docs: 1 });
    }
  }
  const feedback = new Map<string, number>();
  if (held.size === 0) return feedback;
  const terms = [...held.keys()];
  const stats = reads.stemStats
    ? reads.stemStats(terms)
    : await reads.termStats(terms.map((t) => (held.get(t) as { word: string }).word));
  const chosen = terms
    .map((term, i) => ({ term, idf: idfOf(size, stats.df[i] ?? 0), docs: (held.get(term) as { docs: number }).docs }))
    .filter((c) => c.idf > 0)
    .sort((a, b) => b.idf * b.docs - a.idf * a.docs)
    .slice(0, R.feedbackWords);
  for (const c of chosen) feedback.set(c.term, (R.feedbackWeight * c.idf * c.docs) / R.feedbackDocs);
  return feedback;
}

/** How many turns each side of a match liftByNeighbours reads. */
export const NEIGHBOUR_REACH = 2;

/**
 * The turns one and two places from each of the best matches gain a share of its score (the
 * most any neighbour gives), less for a turn longer than the brain's mean. Only the best are
 * read around: a weak match lifts little.
 */
async function liftByNeighbours(
  ranked: Map<string, RankedMemory>,
  filters: MemoryFilters,
  reads: RankingReads,
  bm25: (bag: Bag) => number,
  holdsQueryTerm: (bag: Bag) => boolean,
  { b, meanChars }: BrainLengths,
): Promise<void> {
  const R = MEMORY_RANKING;
  const sources = [...ranked.values()]
    .filter((r) => r.relevance > 0)
    .sort((a, b) => b.relevance - a.relevance)
    .slice(0, R.neighbourSources);
  if (sources.length === 0) return;
  const around = await reads.around(
    sources.map((s) => s.memory),
    NEIGHBOUR_REACH,
  );
  const lift = new Map<string, number>();
  for (const source of sources) {
    const turns = around.get(source.memory.id) ?? [];
    const at = turns.filter((t) => isBefore(t, source.memory)).length;
    turns.forEach((turn, i) => {
      const distance = i < at ? at - i : i - at + 1;
      const share = distance === 1 ? R.neighbourShare : R.neighbourShare * R.secondNeighbourPart;
      // A neighbour longer than the brain's mean gains less: a long answer beside the statement
      // of a fact says much else. Normalised with b² (b: length-norm.ts), so that length counts
      // only where lengths vary much (b² about 0.06 among a chat's turns, 1 beside an
      // assistant's answers); a short reply gains no more than the share.
      const lb = b * b;
      const norm = 1 - lb + (lb * turn.content.length) / meanChars;
      const gain = (share * source.relevance) / Math.max(1, norm);
      if (gain <= 0) return;
      lift.set(turn.id, Math.max(lift.get(turn.id) ?? 0, gain));
      if (!ranked.has(turn.id) && passes(turn, filters)) {
        const bag = reads.bagOf?.(turn) ?? bagOf(turn);
        ranked.set(turn.id, { memory: turn, relevance: bm25(bag), matchesText: holdsQueryTerm(bag) });
      }
    });
  }
  for (const [id, gain] of lift) {
    const r = ranked.get(id);
    if (r) r.relevance += gain;
  }
}

/** The search's filters, for a neighbour read around a match (the session is the match's own). */
function passes(m: Memory, f: MemoryFilters): boolean {
  return (
    (f.memoryType === undefined || m.memory_type === f.memoryType) &&
    (f.speaker === undefined || m.speaker === f.speaker) &&
    (f.since === undefined || m.occurred_at >= f.since) &&
    (f.until === undefined || m.occurred_at <= f.until)
  );
}
