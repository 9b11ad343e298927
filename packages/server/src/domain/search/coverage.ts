import type { ParsedQuery, SearchScope } from '../../store/search-store.js';
import type { Domain } from '../context.js';
import { stem } from '../../porter2.js';
import { RANKING } from './ranking.js';

// Porter2 on both stores (stem, remembered): coverage must not depend on the store's own stemmer.
const WORD = /[\p{L}\p{N}]+/gu;

/** The fields a snapshot is compared on, as its JSON has them. */
interface Readable {
  name?: string;
  one_liner?: string | null;
  tags?: string[];
  core?: string;
}

/**
 * Which of the query's words each snapshot near the seeds holds, weighed by rarity: the graph's
 * bridge signal (ranking.ts, `graphParts`). A multi-hop question names things that no single
 * text holds; an edge from a match to a snapshot holding the words the match lacks is the
 * likelier next hop.
 */
export class QueryCoverage {
  constructor(
    /** Each query word's stem and its weight, ln(1 + cap / df): rare words count most. */
    private readonly weights: ReadonlyMap<string, number>,
    /** The query stems each snapshot holds, for the snapshots read. */
    private readonly held: ReadonlyMap<string, ReadonlySet<string>>,
  ) {}

  /**
   * How much more of the query the seed and `other` hold together than the seed alone:
   * weight(seed ∪ other) ÷ weight(seed), at least 1. 1 when either was not read or the seed
   * holds none of the query's words (it matched through a prefix or a phrase only).
   */
  gain(seed: string, other: string): number {
    const own = this.held.get(seed);
    const theirs = this.held.get(other);
    if (own === undefined || theirs === undefined) return 1;
    let alone = 0;
    let together = 0;
    for (const [stem, weight] of this.weights) {
      if (own.has(stem)) alone += weight;
      if (own.has(stem) || theirs.has(stem)) together += weight;
    }
    return alone > 0 ? together / alone : 1;
  }
}

/**
 * The coverage of `ids` (seeds first, then their neighbours by the strength of the edge that
 * reaches them), at most RANKING.coverageRead of them read: a hub's thousands of neighbours
 * cannot make one search slow, and those not read gain nothing. Undefined when the query has
 * no plain words (only prefixes: nothing to compare).
 */
export async function queryCoverage(
  domain: Domain,
  scope: SearchScope,
  query: ParsedQuery,
  ids: readonly string[],
): Promise<QueryCoverage | undefined> {
  const words = [...new Set([...query.terms, ...query.phrases.flat()])];
  if (words.length === 0) return undefined;
  const [frequencies, rows] = await Promise.all([
    domain.store.search.documentFrequencies(scope.brainId, words, RANKING.rareCountedTo),
    domain.store.search.snapshotsIn({ brainId: scope.brainId }, ids.slice(0, RANKING.coverageRead)),
  ]);
  const weights = new Map<string, number>();
  for (const word of words) {
    const wordStem = stem(word);
    const df = Math.min(RANKING.rareCountedTo, Math.max(1, frequencies.get(word) ?? 1));
    // Two words of one stem ("run", "running") are one word of the query.
    weights.set(wordStem, Math.max(weights.get(wordStem) ?? 0, Math.log(1 + RANKING.rareCountedTo / df)));
  }
  const held = new Map<string, Set<string>>();
  for (const row of rows) held.set(row.id, stemsHeld(JSON.parse(row.json) as Readable, weights));
  return new QueryCoverage(weights, held);
}

/** The query stems among a snapshot's words (name, one_liner, tags, core). */
function stemsHeld(snapshot: Readable, wanted: ReadonlyMap<string, number>): Set<string> {
  const text = [snapshot.name ?? '', snapshot.one_liner ?? '', (snapshot.tags ?? []).join(' '), snapshot.core ?? '']
    .join('\n')
    .toLowerCase();
  const held = new Set<string>();
  for (const word of new Set(text.match(WORD) ?? [])) {
    const wordStem = stem(word);
    if (wanted.has(wordStem)) held.add(wordStem);
  }
  return held;
}
