import type { EdgeType } from '../../model.js';
import type { GraphEdge } from '../../store/search-store.js';

/**
 * The ranking formula's constants, published with the formula in docs/ranking.md and tuned on
 * ../shared/search-eval (`npm run bench -- --only search-quality`).
 */
export const RANKING = {
  /** How many of the best text (or meaning) matches spread influence over their edges. */
  seeds: 30,
  /** Candidates read beyond the requested page, so the graph can reorder across its boundary. */
  spare: 20,
  /** At most this many edges around the seeds are read, strongest first. */
  edgeLimit: 2000,
  /** γ: how much the graph part weighs against the base (text or fused) part. */
  graphWeight: 0.5,
  /** The graph part a snapshot matching no query word needs to enter the results. */
  bringInMin: 0.05,
  /** λ: the share of meaning (cosine) in the base part when an embedding provider is on. */
  semanticWeight: 0.5,
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
  elaborates: { toTarget: 0.8, toSource: 0.6 },
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
 * The graph part of every snapshot the seeds' edges reach: each edge from a seed contributes
 * influence × strength × the seed's base score, and contributions combine as a noisy OR,
 * 1 − Π(1 − c), which stays below 1 and gives each further edge less — a hub linked to many
 * matches rises, but not without bound.
 */
export function graphParts(seeds: ReadonlyMap<string, number>, edges: GraphEdge[]): Map<string, GraphPart> {
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
  for (const edge of edges) {
    const weights = EDGE_INFLUENCE[edge.edge_type];
    const fromSource = seeds.get(edge.source_id);
    if (fromSource !== undefined) {
      push(edge.target_id, influence(edge, edge.source_id, 'incoming', weights.toTarget * edge.strength * fromSource));
    }
    const fromTarget = seeds.get(edge.target_id);
    if (fromTarget !== undefined) {
      push(edge.source_id, influence(edge, edge.target_id, 'outgoing', weights.toSource * edge.strength * fromTarget));
    }
  }
  for (const part of parts.values()) {
    part.value = 1 - part.influences.reduce((rest, i) => rest * (1 - Math.min(1, i.contribution)), 1);
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
    contribution: round(contribution),
  };
}

/** The final score in [0, 1]: the base part, and with the graph on, the graph part weighted by γ. */
export function finalScore(base: number, graph: number | undefined): number {
  if (graph === undefined) return base;
  return (base + RANKING.graphWeight * graph) / (1 + RANKING.graphWeight);
}

/** The base part: text relevance alone, or fused with meaning when vectors exist. */
export function baseScore(text: number, semantic: number | undefined): number {
  if (semantic === undefined) return text;
  return (1 - RANKING.semanticWeight) * text + RANKING.semanticWeight * semantic;
}

export const round = (value: number, digits = 6): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};
