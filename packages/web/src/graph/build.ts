import Graph from 'graphology';
import type { Edge, Snapshot } from '@snapgraph/client';
import { edgeColour, edgeSize, nodeColour, nodeSize } from './style.js';

/**
 * Turning the API's snapshots and edges into the graphology graph that sigma draws: pure code,
 * no DOM, unit-tested in Node (test/graph-build.test.ts).
 */

export interface NodeAttributes {
  label: string;
  type: string;
  tags: string[];
  x: number;
  y: number;
  size: number;
  color: string;
  snapshotType: string;
  /** The snapshot's significance_score, 0..1: with the degree, its size. */
  significance: number;
}

export interface EdgeAttributes {
  edgeType: string;
  strength: number;
  origin: string;
  label: string | null;
  size: number;
  color: string;
  /** sigma's program: `curved` for one of several edges between two snapshots (parallel.ts). */
  type?: 'arrow' | 'curved';
  curvature?: number;
}

export type SnapGraph = Graph<NodeAttributes, EdgeAttributes>;

export function createGraph(): SnapGraph {
  // Directed, one edge per (source, target, type) as the service keeps them: a multigraph.
  return new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: true, allowSelfLoops: true });
}

/**
 * Adds or refreshes snapshots. New nodes start on a circle (a spread the layout can work from;
 * ForceAtlas2 cannot separate nodes that start on the same point); a whole brain, once its edges
 * are in, is placed again by placeByBreadth.
 */
export function addSnapshots(graph: SnapGraph, snapshots: readonly Snapshot[]): void {
  for (const snapshot of snapshots) {
    const attributes = {
      label: snapshot.name,
      snapshotType: snapshot.type,
      tags: snapshot.tags ?? [],
      color: nodeColour(snapshot.type),
      significance: snapshot.significance_score ?? 0,
    };
    if (graph.hasNode(snapshot.id)) {
      graph.mergeNodeAttributes(snapshot.id, {
        ...attributes,
        size: nodeSize(graph.degree(snapshot.id), attributes.significance),
      });
      continue;
    }
    const i = graph.order;
    const angle = i * 2.399963; // the golden angle: no two nodes share a spot however many arrive
    const radius = 10 * Math.sqrt(i + 1);
    graph.addNode(snapshot.id, {
      ...attributes,
      type: 'circle',
      x: radius * Math.cos(angle),
      y: radius * Math.sin(angle),
      size: nodeSize(0, attributes.significance),
    });
  }
}

/** Adds or refreshes edges; an edge whose end is not (yet) a node is skipped and counted. */
export function addEdges(graph: SnapGraph, edges: readonly Edge[]): { added: number; skipped: number } {
  let added = 0;
  let skipped = 0;
  for (const edge of edges) {
    if (!graph.hasNode(edge.source_id) || !graph.hasNode(edge.target_id)) {
      skipped++;
      continue;
    }
    const origin = (edge as { origin?: string }).origin ?? 'manual';
    const attributes: EdgeAttributes = {
      edgeType: edge.edge_type,
      strength: edge.strength,
      origin,
      label: edge.label ?? null,
      size: edgeSize(edge.strength),
      color: edgeColour(edge.edge_type, origin),
    };
    if (graph.hasEdge(edge.id)) graph.replaceEdgeAttributes(edge.id, attributes);
    else {
      graph.addDirectedEdgeWithKey(edge.id, edge.source_id, edge.target_id, attributes);
      added++;
    }
  }
  return { added, skipped };
}

/** Node sizes from degree and significance, once the edges are in: hubs are bigger and keep their labels longest. */
export function sizeByDegree(graph: SnapGraph): void {
  graph.updateEachNodeAttributes((node, attributes) => ({
    ...attributes,
    size: nodeSize(graph.degree(node), attributes.significance),
  }));
}

export interface Filters {
  /** Snapshot types shown; empty means all. */
  snapshotTypes: string[];
  /** A tag every shown snapshot carries; empty means any. */
  tag: string;
  /** Edge types shown; empty means all. */
  edgeTypes: string[];
  /** Edges weaker than this are hidden. */
  minStrength: number;
  /** Automatic edges (origin `auto`) weaker than this are hidden too; 0 shows every one. */
  autoMinStrength: number;
}

export const NO_FILTERS: Filters = { snapshotTypes: [], tag: '', edgeTypes: [], minStrength: 0, autoMinStrength: 0 };

/**
 * Automatic edges from this strength up are drawn by default. Automatic linking keeps up to five
 * edges per snapshot from a score of 0.35 (design §9), so a brain of a few dozen ingested
 * snapshots has well over a hundred of them: drawn all at once they are a hairball that hides the
 * edges a person made. The legend's "Automatic edges" control shows the rest.
 */
export const AUTO_MIN_STRENGTH_DEFAULT = 0.6;

/** What a page opens with: everything but the weak automatic edges. */
export const DEFAULT_FILTERS: Filters = { ...NO_FILTERS, autoMinStrength: AUTO_MIN_STRENGTH_DEFAULT };

export function nodePasses(attributes: NodeAttributes, filters: Filters): boolean {
  if (filters.snapshotTypes.length > 0 && !filters.snapshotTypes.includes(attributes.snapshotType)) return false;
  if (filters.tag !== '' && !attributes.tags.includes(filters.tag)) return false;
  return true;
}

export function edgePasses(attributes: EdgeAttributes, filters: Filters): boolean {
  if (filters.edgeTypes.length > 0 && !filters.edgeTypes.includes(attributes.edgeType)) return false;
  if (attributes.origin === 'auto' && attributes.strength < filters.autoMinStrength) return false;
  return attributes.strength >= filters.minStrength;
}

/**
 * How many nodes and edges the filters leave visible (an edge needs both its ends visible), and
 * how many edges between visible nodes only the automatic edges' threshold hides.
 */
export function countVisible(graph: SnapGraph, filters: Filters): { nodes: number; edges: number; weakAuto: number } {
  let nodes = 0;
  const shown = new Set<string>();
  graph.forEachNode((node, attributes) => {
    if (nodePasses(attributes, filters)) {
      nodes++;
      shown.add(node);
    }
  });
  let edges = 0;
  let weakAuto = 0;
  const allAuto = { ...filters, autoMinStrength: 0 };
  graph.forEachEdge((_edge, attributes, source, target) => {
    if (!shown.has(source) || !shown.has(target)) return;
    if (edgePasses(attributes, filters)) edges++;
    else if (edgePasses(attributes, allAuto)) weakAuto++;
  });
  return { nodes, edges, weakAuto };
}

/**
 * The `evolved_from` chain from a snapshot back to its oldest version: the source of an
 * evolved_from edge is the newer version of its target. Stops at a cycle.
 */
export function evolvedFromChain(graph: SnapGraph, start: string): string[] {
  const chain: string[] = [];
  const seen = new Set([start]);
  let current = start;
  for (;;) {
    const next = graph.outEdges(current).find((edge) => graph.getEdgeAttribute(edge, 'edgeType') === 'evolved_from');
    if (next === undefined) return chain;
    const older = graph.target(next);
    if (seen.has(older)) return chain;
    seen.add(older);
    chain.push(older);
    current = older;
  }
}

/** Every tag in the graph, most used first: the tag filter's choices. */
export function tagsByUse(graph: SnapGraph): string[] {
  const counts = new Map<string, number>();
  graph.forEachNode((_node, attributes) => {
    for (const tag of attributes.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  });
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([tag]) => tag);
}

/**
 * Places every node along one outward spiral in breadth-first order, each component from its
 * best-connected node: linked snapshots start near each other, so the layout begins from a
 * picture with short edges instead of one where every edge crosses the graph. That also makes the
 * first frame cheaper without a GPU, where SwiftShader's time grows with the edges' lengths: at
 * 10,000 snapshots and 30,000 edges it fell from 2.6–2.8 s to 2.0–2.2 s (docs/performance.md).
 */
export function placeByBreadth(graph: SnapGraph): void {
  const byDegree = graph.nodes().sort((a, b) => graph.degree(b) - graph.degree(a));
  const placed = new Set<string>();
  let i = 0;
  const place = (node: string) => {
    placed.add(node);
    // An Archimedean spiral of even density: consecutive points, and neighbouring turns, are
    // the same distance apart.
    const radius = 10 * Math.sqrt(i + 1);
    const angle = Math.sqrt(4 * Math.PI * (i + 1));
    graph.mergeNodeAttributes(node, { x: radius * Math.cos(angle), y: radius * Math.sin(angle) });
    i++;
  };
  for (const root of byDegree) {
    if (placed.has(root)) continue;
    place(root);
    const queue = [root];
    for (let head = 0; head < queue.length; head++) {
      graph.forEachNeighbor(queue[head] as string, (neighbour) => {
        if (placed.has(neighbour)) return;
        place(neighbour);
        queue.push(neighbour);
      });
    }
  }
}
