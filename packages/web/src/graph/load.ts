import type { Edge, SnapgraphClient } from '@snapgraph/client';
import { addEdges, addSnapshots, createGraph, sizeByDegree, type SnapGraph } from './build.js';

export interface LoadProgress {
  snapshots: number;
  edges: number;
  /** The brain's edge count, once the first page of edges has said it. */
  edgesTotal: number | undefined;
}

/**
 * A brain's whole graph, page by page through the client: snapshots 100 at a time (the list's
 * maximum) and edges 200 at a time (the edge list's maximum), reporting progress after each page.
 *
 * The two lists are walked at the same time: each is a chain of requests that waits for its
 * previous page's cursor, so one chain's round trips overlap the other's (on a brain of 10,000
 * snapshots and 30,000 edges, 250 requests). Edges are kept until every snapshot is a node and
 * then added in one pass, since an edge needs both its ends in the graph.
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
  const snapshotsLoaded = (async () => {
    for await (const page of client.snapshots.pages({ brain_id: brainId, limit: 100 }, { signal })) {
      timed(() => addSnapshots(graph, page.data));
      progress.snapshots += page.data.length;
      onProgress(progress);
    }
  })();
  const edgesLoaded = (async () => {
    for await (const page of client.edges.pages({ brain_id: brainId, limit: 200 }, { signal })) {
      edgePages.push(page.data);
      progress.edges += page.data.length;
      progress.edgesTotal = page.total;
      onProgress(progress);
    }
  })();
  // Both settle before a failure is thrown, so no request is left running unobserved.
  const outcomes = await Promise.allSettled([snapshotsLoaded, edgesLoaded]);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  timed(() => {
    for (const edges of edgePages) addEdges(graph, edges);
    sizeByDegree(graph);
  });
  // User Timing entries: what the load cost, split into waiting for pages and building the
  // graph, for the browser's profiler and packages/web/bench/big-brain.ts.
  const fetchMs = performance.now() - started - buildMs;
  performance.measure('snapgraph:fetch', { start: started, duration: fetchMs });
  performance.measure('snapgraph:build', { start: started, duration: buildMs });
  return graph;
}
