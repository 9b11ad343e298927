import type { Edge, SnapgraphClient } from '@snapgraph/client';
import { addEdges, addSnapshots, createGraph, placeByBreadth, sizeByDegree, type SnapGraph } from './build.js';
import { EDGE_TYPES, SNAPSHOT_TYPES } from './style.js';

export interface LoadProgress {
  snapshots: number;
  edges: number;
  /** The brain's edge count, once the first page of every edge type has said it. */
  edgesTotal: number | undefined;
}

/**
 * A brain's whole graph, page by page through the client: snapshots 100 at a time (the list's
 * maximum) and edges 200 at a time (the edge list's maximum), reporting progress after each page.
 *
 * The lists are walked one type at a time, every type at once: a walk is a chain of requests,
 * each waiting for its previous page's cursor, so one chain keeps one connection busy. Eleven
 * chains (five snapshot types, six edge types) keep the browser's six connections to the server
 * busy, where two left the server idle between round trips: on a brain of 10,000 snapshots and
 * 30,000 edges (250 pages), fetching fell from 1.9–2.4 s to ~1 s (docs/performance.md). Every
 * snapshot and edge has one of these types (the service's enums), so the walks cover the brain.
 * Edges are kept until every snapshot is a node and then added in one pass, since an edge needs
 * both its ends in the graph.
 */
export async function loadBrainGraph(
  client: SnapgraphClient,
  brainId: string,
  onProgress: (progress: LoadProgress) => void,
  signal?: AbortSignal,
): Promise<SnapGraph> {
  const started = performance.now();
  let buildMs = 0;
  const timed = (work: () => void) => {
    const from = performance.now();
    work();
    buildMs += performance.now() - from;
  };
  const graph = createGraph();
  const progress: LoadProgress = { snapshots: 0, edges: 0, edgesTotal: undefined };
  const edgePages: Edge[][] = [];
  const edgeTotals = new Map<string, number>();
  // One walk failing stops the others: the load has failed, and its pages are of no use.
  const walking = new AbortController();
  const stop = () => walking.abort();
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) stop();
  const options = { signal: walking.signal };
  const snapshotWalks = SNAPSHOT_TYPES.map(async (type) => {
    for await (const page of client.snapshots.pages({ brain_id: brainId, type, limit: 100 }, options)) {
      timed(() => addSnapshots(graph, page.data));
      progress.snapshots += page.data.length;
      onProgress(progress);
    }
  });
  const edgeWalks = EDGE_TYPES.map(async (edge_type) => {
    for await (const page of client.edges.pages({ brain_id: brainId, edge_type, limit: 200 }, options)) {
      edgePages.push(page.data);
      edgeTotals.set(edge_type, page.total);
      progress.edges += page.data.length;
      if (edgeTotals.size === EDGE_TYPES.length) progress.edgesTotal = sum(edgeTotals.values());
      onProgress(progress);
    }
  });
  // The first failure is the one thrown (the others are the aborts it caused), once every walk
  // has settled, so that no request is left running unobserved.
  let failure: { reason: unknown } | undefined;
  const walks = [...snapshotWalks, ...edgeWalks].map((walk) =>
    walk.catch((reason: unknown) => {
      failure ??= { reason };
      stop();
    }),
  );
  await Promise.all(walks);
  signal?.removeEventListener('abort', stop);
  if (failure) throw failure.reason;
  timed(() => {
    for (const edges of edgePages) addEdges(graph, edges);
    sizeByDegree(graph);
    placeByBreadth(graph);
  });
  // User Timing entries: what the load cost, split into waiting for pages and building the
  // graph, for the browser's profiler and packages/web/bench/big-brain.ts.
  const fetchMs = performance.now() - started - buildMs;
  performance.measure('snapgraph:fetch', { start: started, duration: fetchMs });
  performance.measure('snapgraph:build', { start: started, duration: buildMs });
  return graph;
}

const sum = (values: Iterable<number>): number => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};
