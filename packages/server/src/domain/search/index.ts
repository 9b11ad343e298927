import type { Principal, SnapshotType } from '../../model.js';
import type {
  Contradiction,
  FoundSnapshot,
  GraphEdge,
  ParsedQuery,
  SearchScope,
  TextHit,
  TextMatches,
} from '../../store/search-store.js';
import type { VectorKind } from '../../store/vector-store.js';
import type { MeaningView } from './semantic.js';
import { resolveBrainId } from '../brains/index.js';
import type { Domain } from '../context.js';
import { queryCoverage } from './coverage.js';
import { isEmptyQuery, parseQuery } from './query.js';
import { rankedOf, rankNewerVersionsFirst, type Candidate } from './candidates.js';
import {
  baseScore,
  finalScore,
  graphParts,
  RANKING,
  round,
  shownScore,
  type Bridge,
  type Influence,
} from './ranking.js';

export { parseQuery } from './query.js';

export interface SearchRequest {
  q: string;
  limit: number;
  offset: number;
  brain_id?: string | undefined;
  type?: SnapshotType | undefined;
  tag?: string | undefined;
  graph: boolean;
  explain: boolean;
}

export interface Explanation {
  method: string;
  text: number;
  semantic: number | null;
  graph: number | null;
  edges: Influence[];
  /** How the nearest by meaning were found (design §20); `exact` without vectors too. */
  vector_index: 'exact' | 'hnsw';
  note?: string;
}

export interface SearchResult {
  /** The snapshot as the API's JSON text. */
  json: string;
  score: number;
  contradicted_by: { snapshot_id: string; name: string; edge_id: string; strength: number }[];
  explain?: Explanation;
}

export interface SearchPage {
  results: SearchResult[];
  count: number;
  query: string;
}

const CONTRADICTIONS_SHOWN = 3;

/**
 * GET /v1/snapshots/search (design §8): text relevance, then the graph. The best text matches
 * are the seeds; their edges carry influence to the snapshots at the other ends (ranking.ts);
 * a snapshot that matches no word enters when its graph part is strong enough. With
 * `graph: false`, the same text matches are ranked by text alone.
 */
export async function searchSnapshots(
  domain: Domain,
  principal: Principal,
  request: SearchRequest,
): Promise<SearchPage> {
  const query = request.q.trim();
  const brainId = await resolveBrainId(domain, principal, request.brain_id);
  const parsed = parseQuery(query);
  if (isEmptyQuery(parsed)) return { results: [], count: 0, query };
  // Stored tags are trimmed, so the filter is too (` winter ` finds `winter`).
  const scope: SearchScope = { brainId, type: request.type, tag: request.tag?.trim() };
  const search = domain.store.search;

  const wanted = request.offset + request.limit;
  const text = await search.textMatches(scope, parsed, Math.max(wanted + RANKING.spare, RANKING.seeds));
  // Text relevance on the store's own scale, made relative to the best match of this query.
  const best = text.hits[0]?.relevance ?? 0;
  const textPart = (hit: TextHit) => (best > 0 ? (RANKING.textCeiling * hit.relevance) / best : 0);
  const candidates = new Map<string, Candidate>();
  for (const hit of text.hits) candidates.set(hit.id, candidate(hit.id, hit.created_at, textPart(hit), true));

  const meaning = await meaningOf(domain, brainId, query);
  let broughtIn = 0;
  if (meaning.view) broughtIn += await addMeaning(domain, scope, candidates, meaning.view, wanted, text);
  if (request.graph && candidates.size > 0) {
    broughtIn += await spreadOverGraph(domain, scope, parsed, candidates);
  }
  for (const c of candidates.values()) c.score = finalScore(c.base, request.graph ? (c.graph?.value ?? 0) : undefined);
  if (request.graph) await rankNewerVersionsFirst(domain, brainId, candidates, wanted);

  const page = rankedOf(candidates).slice(request.offset, wanted);
  const ids = page.map((c) => c.id);
  const [rows, contradictions] = await Promise.all([
    search.snapshotsIn({ brainId }, ids),
    search.contradictionsOf(brainId, ids),
  ]);
  const rowById = new Map<string, FoundSnapshot>(rows.map((row) => [row.id, row]));
  const results: SearchResult[] = [];
  for (const c of page) {
    const row = rowById.get(c.id);
    if (row === undefined) continue; // deleted since it was ranked
    results.push({
      json: row.json,
      score: shownScore(c.score, c.matchesText),
      contradicted_by: contradictedBy(c.id, contradictions),
      ...(request.explain ? { explain: explanation(c, request.graph, meaning) } : {}),
    });
  }
  return { results, count: text.total + broughtIn, query };

  function candidate(id: string, createdAt: string, textScore: number, matchesText: boolean): Candidate {
    return {
      id,
      created_at: createdAt,
      text: textScore,
      semantic: undefined,
      base: baseScore(textScore, undefined),
      graph: undefined,
      score: 0,
      matchesText,
    };
  }

  /**
   * Adds the graph part to the candidates, and the snapshots the seeds' edges reach: those that
   * match the query deeper than the candidates read get their text part, and those that match
   * no word enter when their graph part is at least RANKING.bringInMin. Returns how many of
   * the latter entered (they add to `count`).
   */
  async function spreadOverGraph(
    d: Domain,
    s: SearchScope,
    q: typeof parsed,
    all: Map<string, Candidate>,
  ): Promise<number> {
    const seeds = new Map(
      [...all.values()]
        .sort((a, b) => b.base - a.base)
        .slice(0, RANKING.seeds)
        .map((c) => [c.id, c.base]),
    );
    const edges = await d.store.search.edgesTouching(s.brainId, [...seeds.keys()], RANKING.edgeLimit);
    // Text matches deeper than the candidates read rank below all of them: their text part
    // counts as 0, and they are in `count` already. Others enter on a strong enough graph part.
    const outside = new Set<string>();
    for (const edge of edges) for (const id of [edge.source_id, edge.target_id]) if (!all.has(id)) outside.add(id);
    const deeper = await text.matching([...outside]);
    const bridge = await bridgeOf(d, s, q, seeds, edges, (id) => all.get(id)?.matchesText === true || deeper.has(id));
    const parts = graphParts(seeds, edges, bridge);
    const reached = [...parts.keys()].filter((id) => !all.has(id));
    const entering = reached.filter((id) => deeper.has(id) || (parts.get(id)?.value ?? 0) >= RANKING.bringInMin);
    // Only those in scope (the brain, and the type and tag asked for) may enter.
    const inScope = await d.store.search.inScope(s, entering);
    for (const row of inScope) {
      const meant = meaning.view?.of(row.id);
      all.set(row.id, {
        ...candidate(row.id, row.created_at, 0, deeper.has(row.id)),
        semantic: meant,
        base: baseScore(0, meant),
      });
    }
    for (const [id, part] of parts) {
      const c = all.get(id);
      if (c) c.graph = part;
    }
    return inScope.filter((row) => !deeper.has(row.id)).length;
  }
}

/**
 * The bridge gains of the seeds' edges (coverage.ts), or undefined when no edge joins a seed to
 * another text match: a snapshot that holds no query word holds none its seed lacks (gain 1), so
 * only the seeds and the matches they reach are read — strongest edge first, as edges come.
 */
async function bridgeOf(
  domain: Domain,
  scope: SearchScope,
  query: ParsedQuery,
  seeds: ReadonlyMap<string, number>,
  edges: GraphEdge[],
  matches: (id: string) => boolean,
): Promise<Bridge | undefined> {
  const near = new Set(seeds.keys());
  for (const edge of edges) {
    const other = seeds.has(edge.source_id) ? edge.target_id : edge.source_id;
    if (seeds.has(other) || matches(other)) near.add(other);
  }
  const joined = edges.some(
    (e) => (seeds.has(e.source_id) || matches(e.source_id)) && (seeds.has(e.target_id) || matches(e.target_id)),
  );
  return joined ? queryCoverage(domain, scope, query, [...near]) : undefined;
}

/** The query's meaning view, or why there is none (explain says which). */
export interface Meaning {
  view?: MeaningView;
  missing?: string;
}

/** How the query relates by meaning to the brain's snapshots (or memories), when it can be known. */
export async function meaningOf(
  domain: Domain,
  brainId: string,
  query: string,
  kind: VectorKind = 'snapshot',
): Promise<Meaning> {
  if (!domain.semantic) return { missing: 'no embedding provider is configured' };
  try {
    return { view: await domain.semantic.view(brainId, query, kind) };
  } catch {
    // Search answers without meaning rather than fail while the provider is away.
    return { missing: 'the embedding provider did not answer' };
  }
}

/**
 * Meaning fused into the base part of every candidate with a vector, and the nearest snapshots
 * by meaning added as candidates (a meaning match need share no word). Returns how many of
 * those match no query word (they add to `count`).
 */
async function addMeaning(
  domain: Domain,
  scope: SearchScope,
  candidates: Map<string, Candidate>,
  view: MeaningView,
  wanted: number,
  text: TextMatches,
): Promise<number> {
  for (const c of candidates.values()) {
    c.semantic = view.of(c.id);
    c.base = baseScore(c.text, c.semantic);
  }
  const near = view
    .nearest(Math.max(wanted + RANKING.spare, RANKING.seeds), RANKING.semanticMin)
    .filter((n) => !candidates.has(n.id));
  const ids = near.map((n) => n.id);
  const inScope = await domain.store.search.inScope(scope, ids);
  const textMatches = await text.matching(inScope.map((row) => row.id));
  // Text matches deeper than the candidates read count as text 0, and are in `count` already.
  for (const row of inScope) {
    const semantic = view.of(row.id);
    candidates.set(row.id, {
      id: row.id,
      created_at: row.created_at,
      text: 0,
      semantic,
      base: baseScore(0, semantic),
      graph: undefined,
      score: 0,
      matchesText: textMatches.has(row.id),
    });
  }
  return inScope.filter((row) => !textMatches.has(row.id)).length;
}

function contradictedBy(id: string, contradictions: Contradiction[]): SearchResult['contradicted_by'] {
  return contradictions
    .filter((c) => c.subject_id === id)
    .slice(0, CONTRADICTIONS_SHOWN)
    .map((c) => ({ snapshot_id: c.snapshot_id, name: c.name, edge_id: c.edge_id, strength: c.strength }));
}

function explanation(c: Candidate, graph: boolean, meaning: Meaning): Explanation {
  const method = `text${meaning.view ? '+semantic' : ''}${graph ? '+graph' : ''}`;
  const rankedBy = graph ? 'text and graph' : 'text';
  const notes = [];
  if (meaning.missing) notes.push(`${meaning.missing}: ranked by ${rankedBy} only`);
  else if (c.semantic === undefined) notes.push(`this snapshot has no vector yet: ranked by ${rankedBy}`);
  if (c.replaces) notes.push(`placed in the place of ${c.replaces}, the version it replaces (evolved_from)`);
  if (c.superseded) notes.push(`placed just below ${c.superseded}, its newer version (evolved_from)`);
  return {
    method,
    text: round(c.text),
    semantic: c.semantic === undefined ? null : round(c.semantic),
    graph: graph ? round(c.graph?.value ?? 0) : null,
    edges: graph ? (c.graph?.influences ?? []) : [],
    vector_index: meaning.view?.index ?? 'exact',
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}
