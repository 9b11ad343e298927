import type { SnapGraph } from './build.js';

/**
 * Edges between the same two snapshots (an `evolved_from` and a `contradicts`, say, in either
 * direction) drawn apart: each curved to its own side, so that every one keeps its own colour
 * and width instead of all being drawn as one line. A pair's single edge stays straight.
 */

/** How far apart two edges of one pair bow: sigma's curvature, a share of the edge's length. */
export const PARALLEL_SPACING = 0.35;

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** Curves the edges of every pair of snapshots joined by more than one edge. */
export function curveParallelEdges(graph: SnapGraph): void {
  const pairs = new Map<string, string[]>();
  graph.forEachEdge((edge, _attributes, source, target) => {
    const key = pairKey(source, target);
    const edges = pairs.get(key);
    if (edges) edges.push(edge);
    else pairs.set(key, [edge]);
  });
  for (const edges of pairs.values()) curvePair(graph, edges);
}

/** Curves the edges between these two snapshots again (after one was added or removed). */
export function curvePairOf(graph: SnapGraph, a: string, b: string): void {
  if (!graph.hasNode(a) || !graph.hasNode(b)) return;
  curvePair(graph, [...new Set([...graph.edges(a, b), ...graph.edges(b, a)])]);
}

function curvePair(graph: SnapGraph, edges: string[]): void {
  if (edges.length === 0) return; // the pair's last edge was removed
  if (edges.length === 1) {
    graph.mergeEdgeAttributes(edges[0] as string, { type: 'arrow', curvature: 0 });
    return;
  }
  // In a stable order (by type, then id), spread evenly either side of the straight line. A
  // curvature bends to the left of the edge's own direction, so an edge running the other way
  // has its sign turned, to bow to the same side as its place in the pair says.
  const ordered = [...edges].sort((x, y) => {
    const [a, b] = [graph.getEdgeAttribute(x, 'edgeType'), graph.getEdgeAttribute(y, 'edgeType')];
    return a === b ? x.localeCompare(y) : a.localeCompare(b);
  });
  const [low] = [...graph.extremities(ordered[0] as string)].sort();
  ordered.forEach((edge, i) => {
    const offset = (i - (ordered.length - 1) / 2) * PARALLEL_SPACING;
    const forward = graph.source(edge) === low;
    graph.mergeEdgeAttributes(edge, {
      type: offset === 0 ? 'arrow' : 'curved',
      curvature: forward ? offset : -offset,
    });
  });
}
