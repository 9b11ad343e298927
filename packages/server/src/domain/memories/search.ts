import type { Memory, MemoryType, Principal } from '../../model.js';
import type { MemorySearch, MemoryWordIndex } from '../../store/memory-store.js';
import { resolveBrainId } from '../brains/index.js';
import type { Domain } from '../context.js';
import { meaningOf } from '../search/index.js';
import { answerKindFirst } from './answer-kind.js';
import { withoutContractions } from './contractions.js';
import { currentVersionsFirst } from './supersession/in-search.js';
import { latestRestatementFirst } from './restated.js';
import { ownStatementsFirst } from './person.js';
import { standingWindow } from './window.js';
import { conversationNeighbours } from './neighbours.js';
import { termCounts } from './term-counts.js';
import { brainLengths } from './length-norm.js';
import { isEmptyQuery, parseQuery } from '../search/query.js';
import { baseScore, compareDesc, RANKING, shownScore } from '../search/ranking.js';
import {
  bagOf,
  idfOf,
  MEMORY_RANKING,
  NEIGHBOUR_REACH,
  rankedTerms,
  rankMemories,
  type RankedMemory,
} from './ranking.js';
import type { MeaningView } from '../search/semantic.js';

export interface MemorySearchInput {
  query: string;
  brain_id?: string | undefined;
  memory_type?: MemoryType | undefined;
  speaker?: string | undefined;
  session_id?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  /** Leave superseded memories out (design §6.1). */
  current_only?: boolean | undefined;
  /** The brain as it stood then: later memories are left out and replace nothing. */
  as_of?: string | undefined;
  /** 0–5: the memories around each result in its session (design §12). */
  context?: number | undefined;
  limit: number;
}

type Scored = Memory & { score: number; similarity: string };

/**
 * A result: the memory's fields with its score and its similarity, written out as one literal
 * so that every result has one hidden class. A spread (`{ ...memory, score }`) gave nearly each
 * result a class of its own in the server (588 of 596 in a probe at 100,000 memories), and the
 * response's serializer then ran megamorphic: ~0.1 ms a response against ~0.05 ms.
 */
function scoredMemory(m: Memory, score: number): Scored {
  return {
    id: m.id,
    brain_id: m.brain_id,
    content: m.content,
    memory_type: m.memory_type,
    speaker: m.speaker,
    tags: m.tags,
    source_emotion: m.source_emotion,
    emotional_valence: m.emotional_valence,
    emotional_intensity: m.emotional_intensity,
    occurred_at: m.occurred_at,
    session_id: m.session_id,
    promoted_to: m.promoted_to,
    superseded_by: m.superseded_by,
    superseded_at: m.superseded_at,
    created_at: m.created_at,
    updated_at: m.updated_at,
    score,
    similarity: score.toFixed(4),
  };
}

/**
 * POST /v1/memories/search (design §12.3), ranked as snapshot search ranks without its graph:
 * full-text relevance (tags above content), the best match RANKING.textCeiling and the others in
 * proportion; with an embedding provider, meaning fused in (baseScore) and the memories nearest
 * in meaning brought in though they share no word. `similarity` is the score as text with 4
 * decimals. Memories have no edges, so there is no graph part.
 */
export async function searchMemories(domain: Domain, principal: Principal, input: MemorySearchInput) {
  const { asOf, ...window } = standingWindow(input);
  const brainId = await resolveBrainId(domain, principal, input.brain_id);
  const query = input.query.trim();
  const parsed = parseQuery(withoutContractions(query));
  if (isEmptyQuery(parsed)) return { data: [], count: 0, query };
  const search = {
    brainId,
    query: parsed,
    memoryType: input.memory_type,
    speaker: input.speaker,
    sessionId: input.session_id,
    ...window,
  };
  const found = await ranked(domain, search, query, input.limit);
  const { data, broughtIn } = await currentVersionsFirst(
    domain,
    principal.accountId,
    search,
    asOf,
    found.data,
    input.limit,
  );
  return { data: await withContext(domain, brainId, data, input.context), count: found.count + broughtIn, query };
}

async function ranked(domain: Domain, search: Omit<MemorySearch, 'limit'>, query: string, limit: number) {
  const meaning = await meaningOf(domain, search.brainId, query, 'memory');
  // Meaning can reorder across the page's end: read spare text matches, as snapshot search does.
  const wanted = meaning.view ? limit + RANKING.spare : limit;
  const text = await textRanked(domain, search, wanted);
  const { total, broughtIn } = text;
  const hits = latestRestatementFirst(
    ownStatementsFirst(
      query,
      answerKindFirst(query, text.hits, wanted, await brainLengths(domain.store.memories, search.brainId)),
    ),
    text.weights,
    query,
  );
  if (!meaning.view) {
    const best = hits[0]?.relevance ?? 0;
    const data = hits
      .slice(0, limit)
      .map(({ memory, relevance, matchesText }) =>
        scoredMemory(memory, shownScore(best > 0 ? (RANKING.textCeiling * relevance) / best : 0, matchesText, 4)),
      );
    return { data, count: total + broughtIn };
  }
  const fused = await fuseMeaning(domain, search, hits, meaning.view, limit);
  return { data: fused.ranked.slice(0, limit), count: total + broughtIn + fused.broughtIn };
}

/**
 * The text matches best first: plain words ranked here (ranking.ts) over the store's best
 * MEMORY_RANKING.pool matches (poolWithoutIdf on PostgreSQL), phrases and prefixes by the store's own relevance. `broughtIn`:
 * memories ranked for their neighbours that match no query word (they add to `count`).
 */
async function textRanked(domain: Domain, search: Omit<MemorySearch, 'limit'>, wanted: number) {
  const store = domain.store.memories;
  const terms = rankedTerms(search.query);
  const words = terms && store.wordIndex && byWordIndexAllowed(search) ? store.wordIndex(search.brainId) : undefined;
  const indexed = terms && words && (await byWordIndex(domain, words, search, terms, wanted));
  if (indexed) return indexed;
  const lengths = terms && (await brainLengths(store, search.brainId));
  const pool = store.relevanceHasIdf ? MEMORY_RANKING.pool : MEMORY_RANKING.poolWithoutIdf;
  const found = await store.search({ ...search, limit: terms ? Math.max(wanted, pool) : wanted });
  if (!terms || !lengths || found.hits.length === 0) {
    return {
      hits: found.hits.map((hit) => ({ ...hit, matchesText: true })),
      total: found.total,
      broughtIn: 0,
      weights: NO_WEIGHTS,
    };
  }
  const counted = await termCounts(store, search.brainId, [...terms.values()], MEMORY_RANKING.dfCap);
  const weights = new Map([...terms.keys()].map((term, i) => [term, idfOf(counted.size, counted.df[i] ?? 0)]));
  const read = found.hits.map((hit) => hit.memory);
  const hits = await rankMemories(
    terms,
    store.relevanceHasIdf ? read : bestByBm25(read, weights, lengths.b, Math.max(wanted, MEMORY_RANKING.pool)),
    search,
    {
      termStats: (words) => termCounts(store, search.brainId, words, MEMORY_RANKING.dfCap),
      around: (anchors, n) => conversationNeighbours(store, search.brainId, anchors, n),
    },
    lengths,
  );
  return { hits, total: found.total, broughtIn: hits.filter((hit) => !hit.matchesText).length, weights };
}

/**
 * The `k` best of a store's matches by BM25 (ranking.ts's, over these weights; the matches' mean
 * length), in the store's order where they tie: a store whose relevance has no IDF hands over
 * MEMORY_RANKING.poolWithoutIdf by it, and ranking then sees the `pool` best as the word index
 * hands them over (byWordIndex), so that a pool of the same size sets the same mean length.
 */
function bestByBm25(memories: Memory[], weights: ReadonlyMap<string, number>, b: number, k: number): Memory[] {
  if (memories.length <= k) return memories;
  const { k1 } = MEMORY_RANKING;
  const bags = memories.map((memory) => bagOf(memory, false));
  const mean = Math.max(1, bags.reduce((sum, bag) => sum + bag.length, 0) / bags.length);
  return bags
    .map((bag, i) => {
      let score = 0;
      for (const [term, weight] of weights) {
        const tf = bag.counts.get(term) ?? 0;
        if (tf > 0) score += (weight * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * bag.length) / mean));
      }
      return { memory: memories[i] as Memory, score };
    })
    .sort((x, y) => y.score - x.score)
    .slice(0, k)
    .map((scored) => scored.memory);
}

/** No query words weighed (phrases and prefixes keep the store's relevance). */
const NO_WEIGHTS: ReadonlyMap<string, number> = new Map();

/**
 * textRanked through the brain's word index (the store's MemoryWordIndex), when the store keeps one and the
 * search filters by nothing the index lacks (its type only): the candidates are the `pool` best
 * by BM25 over every match, and every word's count is exact; `count` is the store's, as on its
 * own path. Undefined when the index is not ready or finds nothing (the store's path then says
 * what it finds).
 */
async function byWordIndex(
  domain: Domain,
  words: MemoryWordIndex,
  search: Omit<MemorySearch, 'limit'>,
  terms: Map<string, string>,
  wanted: number,
): Promise<
  { hits: RankedMemory[]; total: number; broughtIn: number; weights: ReadonlyMap<string, number> } | undefined
> {
  const df = words.df([...terms.values()]);
  const weights = new Map([...terms.keys()].map((term, i) => [term, idfOf(words.size, df[i] ?? 0)]));
  const { k1 } = MEMORY_RANKING;
  const lengths = await brainLengths(domain.store.memories, search.brainId);
  const { b } = lengths;
  const best = words.best(weights, search.memoryType, Math.max(wanted, MEMORY_RANKING.pool), { k1, b });
  if (best.keys.length === 0) return undefined;
  const rows = words.memories(best.keys);
  const keyOf = new Map<string, number>();
  const pool = best.keys.flatMap((key) => {
    const memory = rows.get(key);
    if (memory) keyOf.set(memory.id, key);
    return memory ?? [];
  });
  const total = words.countMatches(search);
  const hits = await rankMemories(
    terms,
    pool,
    search,
    {
      termStats: async (list) => ({ size: words.size, df: words.df(list) }),
      stemStats: (stems) => ({ size: words.size, df: words.dfOfStems(stems) }),
      bagOf: (memory) => {
        const key = keyOf.get(memory.id);
        return key === undefined ? undefined : words.bagOfKey(key);
      },
      around: async (anchors, n) => {
        // The turns around each anchor: kept by the index since the brain last changed, or read.
        const around = new Map<string, Memory[]>();
        const unread: Memory[] = [];
        for (const anchor of anchors) {
          const kept = n === NEIGHBOUR_REACH ? words.keptTurns(anchor.id) : undefined;
          if (!kept) unread.push(anchor);
          else {
            around.set(anchor.id, kept.turns);
            for (const [id, key] of kept.keys) keyOf.set(id, key);
          }
        }
        if (unread.length === 0) return around;
        const read = await conversationNeighbours(domain.store.memories, search.brainId, unread, n);
        // Their bags from the index too (tokenizing them cost more than this look-up).
        const ids = [...read.values()].flatMap((turns) => turns.map((t) => t.id)).filter((id) => !keyOf.has(id));
        if (ids.length > 0) for (const [id, key] of words.keysOf(ids)) keyOf.set(id, key);
        for (const anchor of unread) {
          const turns = read.get(anchor.id) ?? [];
          around.set(anchor.id, turns);
          const keys = new Map(turns.flatMap((t) => (keyOf.has(t.id) ? [[t.id, keyOf.get(t.id) as number]] : [])));
          if (n === NEIGHBOUR_REACH) words.keepTurns(anchor.id, { turns, keys });
        }
        return around;
      },
    },
    lengths,
  );
  return { hits, total, broughtIn: hits.filter((hit) => !hit.matchesText).length, weights };
}

/** Whether the search filters by nothing the word index lacks (it holds each memory's type only). */
function byWordIndexAllowed(search: Omit<MemorySearch, 'limit'>): boolean {
  return (
    search.speaker === undefined &&
    search.sessionId === undefined &&
    search.since === undefined &&
    search.until === undefined &&
    search.current === undefined
  );
}

/**
 * With `context: n` (design §12) each result carries the up to n memories just before and just
 * after it in its session, by occurred_at; a memory without a session has none around it.
 */
async function withContext<T extends Memory>(domain: Domain, brainId: string, results: T[], n: number | undefined) {
  if (n === undefined || n <= 0) return results;
  const around = await domain.store.memories.sessionContext(brainId, results, n);
  return results.map((result) => ({ ...result, context: around.get(result.id) ?? [] }));
}

/**
 * Text hits and the nearest memories by meaning, each scored by its fused base part. Returns
 * them best first, and how many of those brought in by meaning match no query word (they add to
 * `count`; deeper text matches are counted already).
 */
async function fuseMeaning(
  domain: Domain,
  search: Omit<MemorySearch, 'limit'>,
  hits: RankedMemory[],
  view: MeaningView,
  limit: number,
): Promise<{ ranked: Scored[]; broughtIn: number }> {
  const best = hits[0]?.relevance ?? 0;
  const scored = new Map<string, { memory: Memory; base: number; matchesText: boolean }>();
  for (const { memory, relevance, matchesText } of hits) {
    const text = best > 0 ? (RANKING.textCeiling * relevance) / best : 0;
    scored.set(memory.id, { memory, base: baseScore(text, view.of(memory.id)), matchesText });
  }
  const near = view.nearest(limit + RANKING.spare, RANKING.semanticMin).filter((n) => !scored.has(n.id));
  const entering = await domain.store.memories.among(
    search,
    near.map((n) => n.id),
  );
  for (const { memory, matchesText } of entering) {
    scored.set(memory.id, { memory, base: baseScore(0, view.of(memory.id)), matchesText });
  }
  const ranked = [...scored.values()]
    .sort(
      (a, b) =>
        b.base - a.base ||
        compareDesc(a.memory.created_at, b.memory.created_at) ||
        compareDesc(a.memory.id, b.memory.id),
    )
    .map(({ memory, base, matchesText }) => scoredMemory(memory, shownScore(base, matchesText, 4)));
  return { ranked, broughtIn: entering.filter((e) => !e.matchesText).length };
}
