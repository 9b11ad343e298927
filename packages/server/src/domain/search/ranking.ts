import type { EdgeType } from '../../model.js';
import type { GraphEdge } from '../../store/search-store.js';

/**
 * The ranking formula's constants, published with the formula in docs/ranking.md and tuned on
 * ../shared/search-eval (`npm run bench -- --only search-quality`).
 */
export const RANKING = {
  /** How many of the best text (or meaning) matches spread influence over their edges. */
  seeds: 5,
  /** Candidates read beyond the requested page, so the graph can reorder across its boundary. */
  spare: 20,
  /** At most this many edges around the seeds are read, strongest first. */
  edgeLimit: 2000,
  /**
   * At most this many snapshots (the seeds, then their neighbours by the strength of the edge
   * that reaches them) are read to see which query words they hold (coverage.ts): the rest of
   * a hub's neighbours gain nothing from what they hold.
   */
  coverageRead: 200,
  /** Query words are weighed by ln(1 + this ÷ the snapshots holding them, counted up to this). */
  rareCountedTo: 1000,
  /**
   * A seed passes on its base score raised to this power: the best matches speak for their
   * neighbours, weak ones hardly (a flat weighting let middling matches promote noise).
   */
  seedPower: 3,
  /**
   * A seed's push on each neighbour is divided by (its number of edges)^hubDamping: a hub that
   * names half the brain says little about any one of its neighbours.
   */
  hubDamping: 0.5,
  /** γ: how much of the graph part counts (1: all of it). */
  graphWeight: 1,
  /** The graph part a snapshot matching no query word needs to enter the results. */
  bringInMin: 0.05,
  /**
   * The best text match's base part: below 1, so the graph can still lift it (under the noisy
   * OR, a base of 1 would leave no room, and a supported best match would tie its unsupported
   * twin). Text parts are relevance ÷ the best relevance × this ceiling.
   */
  textCeiling: 0.95,
  /** λ: the share of meaning (cosine) in the base part when an embedding provider is on. */
  semanticWeight: 0.5,
  /** The cosine from which a snapshot counts as a meaning match (and may enter the results). */
  semanticMin: 0.3,
  /** How far below its newer version a superseded snapshot is put when both are results. */
  supersededMargin: 0.0001,
} as const;

/**
 * How strongly an edge passes influence from a matching snapshot at one end to the snapshot at
 * the other, by type and direction (source → target is the edge's direction). `contradicts`
 * passes none: a contradiction never raises a score; it is surfaced in `contradicted_by`.
 */
export const EDGE_INFLUENCE: Record<EdgeType, { toTarget: number; toSource: number }> = {
  // The source backs the target: the backed claim rises most.
  supports: { toTarget: 1, toSource: 0.3 },
  // The source adds detail to the target: each makes the other more likely relevant.
  elaborates: { toTarget: 0.8, toSource: 1 },
  caused_by: { toTarget: 0.5, toSource: 0.5 },
  // The source is the newer version: a match on the old one brings the new one in.
  evolved_from: { toTarget: 0.2, toSource: 1 },
  related_to: { toTarget: 0.5, toSource: 0.5 },
  contradicts: { toTarget: 0, toSource: 0 },
};

/** One edge's push on a result, for `explain`. */
export interface Influence {
  edge_id: string;
  edge_type: EdgeType;
  /** The matching snapshot at the edge's other end. */
  snapshot_id: string;
  /** Whether that snapshot is the edge's source (the edge comes in) or its target. */
  direction: 'incoming' | 'outgoing';
  strength: number;
  contribution: number;
}

export interface GraphPart {
  value: number;
  influences: Influence[];
}

/**
 * How much more of the query a seed and a snapshot it reaches hold together than the seed alone
 * (coverage.ts): at least 1, and 1 when unknown.
 */
export interface Bridge {
  gain(seed: string, other: string): number;
}

/**
 * The graph part of every snapshot the seeds' edges reach: each edge from a seed contributes
 * influence × strength × the seed's weight × the bridge gain, and contributions combine as a
 * noisy OR, 1 − Π(1 − c), which stays below 1 and gives each further edge less — a hub linked
 * to many matches rises, but not without bound. The bridge gain rewards the neighbour that
 * holds the query words its seed lacks: the next hop of a question no one text answers.
 */
export function graphParts(
  seeds: ReadonlyMap<string, number>,
  edges: GraphEdge[],
  bridge?: Bridge,
): Map<string, GraphPart> {
  const parts = new Map<string, GraphPart>();
  const push = (id: string, influence: Influence) => {
    if (influence.contribution <= 0) return;
    let part = parts.get(id);
    if (part === undefined) {
      part = { value: 0, influences: [] };
      parts.set(id, part);
    }
    part.influences.push(influence);
  };
  const degree = new Map<string, number>();
  for (const edge of edges) {
    degree.set(edge.source_id, (degree.get(edge.source_id) ?? 0) + 1);
    degree.set(edge.target_id, (degree.get(edge.target_id) ?? 0) + 1);
  }
  const seedWeight = (id: string) => {
    const base = seeds.get(id);
    if (base === undefined) return undefined;
    return base ** RANKING.seedPower / (degree.get(id) ?? 1) ** RANKING.hubDamping;
  };
  for (const edge of edges) {
    const weights = EDGE_INFLUENCE[edge.edge_type];
    const gain = (seed: string, other: string) => bridge?.gain(seed, other) ?? 1;
    const fromSource = seedWeight(edge.source_id);
    if (fromSource !== undefined) {
      const pushed = weights.toTarget * edge.strength * fromSource * gain(edge.source_id, edge.target_id);
      push(edge.target_id, influence(edge, edge.source_id, 'incoming', pushed));
    }
    const fromTarget = seedWeight(edge.target_id);
    if (fromTarget !== undefined) {
      const pushed = weights.toSource * edge.strength * fromTarget * gain(edge.target_id, edge.source_id);
      push(edge.source_id, influence(edge, edge.target_id, 'outgoing', pushed));
    }
  }
  for (const part of parts.values()) {
    part.value = 1 - part.influences.reduce((rest, i) => rest * (1 - i.contribution), 1);
    part.influences.sort((a, b) => b.contribution - a.contribution);
  }
  return parts;
}

function influence(edge: GraphEdge, from: string, direction: Influence['direction'], contribution: number): Influence {
  return {
    edge_id: edge.id,
    edge_type: edge.edge_type,
    snapshot_id: from,
    direction,
    strength: edge.strength,
    // The bridge gain can carry a push past 1; one edge cannot make more than certain.
    contribution: round(Math.min(1, contribution)),
  };
}

/**
 * The final score in [0, 1]: with the graph on, the base part and the graph part combine as a
 * noisy OR, 1 − (1 − base)(1 − γ·graph) — the graph lifts a result by a share of the distance
 * left to 1, never lowers one, and lifts a weak text match more than a strong one.
 */
export function finalScore(base: number, graph: number | undefined): number {
  if (graph === undefined) return base;
  return 1 - (1 - base) * (1 - RANKING.graphWeight * graph);
}

/** The base part: text relevance alone, or fused with meaning when vectors exist. */
export function baseScore(text: number, semantic: number | undefined): number {
  if (semantic === undefined) return text;
  return (1 - RANKING.semanticWeight) * text + RANKING.semanticWeight * semantic;
}

/**
 * The least score a result that matches a query word shows (design §12): relevance relative to
 * the best match can be tiny (a word most of a small brain holds, against a rare one), and a
 * real match must not read 0.0000 beside noise. Only the shown score is raised: the order is
 * the unraised one's, so weak matches keep their places among themselves.
 */
export const SCORE_FLOOR = 0.01;

/** A result's score as shown: rounded to `digits`, and at least SCORE_FLOOR for a text match. */
export function shownScore(score: number, matchesText: boolean, digits = 6): number {
  const rounded = round(score, digits);
  return matchesText ? Math.max(SCORE_FLOOR, rounded) : rounded;
}

export const round = (value: number, digits = 6): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** Descending order of ISO times or ids: the ranking's tie-breakers (the later write first). */
export const compareDesc = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);

/**
 * Search results ranked by text alone (knowledge entries, memories), scored as snapshot search
 * scores its text part: the best match RANKING.textCeiling, the others in proportion to their
 * relevance, and at least SCORE_FLOOR; `similarity` is the score as text with 4 decimals.
 */
export function scoredByText<H extends { relevance: number }, T extends object>(
  hits: readonly H[],
  item: (hit: H) => T,
): (T & { score: number; similarity: string })[] {
  const best = hits[0]?.relevance ?? 0;
  return hits.map((hit) => {
    const score = shownScore(best > 0 ? (RANKING.textCeiling * hit.relevance) / best : 0, true, 4);
    return { ...item(hit), score, similarity: score.toFixed(4) };
  });
}
