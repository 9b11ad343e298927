import type { SnapgraphClient } from '@snapgraph/client';
import { addEdges, addSnapshots, createGraph, sizeByDegree, type SnapGraph } from './build.js';

export interface LoadProgress {
  snapshots: number;
  edges: number;
  /** The brain's edge count, once the first page of edges has said it. */
  edgesTotal: number | undefined;
}

/**
 * A brain's whole graph, page by page through the client: snapshots 100 at a time (the list's
 * maximum), then edges 200 at a time (the edge list's maximum), reporting progress after each page.
 */
export async function loadBrainGraph(
  client: SnapgraphClient,
  brainId: string,
  onProgress: (progress: LoadProgress) => void,
  signal?: AbortSignal,
): Promise<SnapGraph> {
  const graph = createGraph();
  const progress: LoadProgress = { snapshots: 0, edges: 0, edgesTotal: undefined };
  for await (const page of client.snapshots.pages({ brain_id: brainId, limit: 100 }, { signal })) {
    addSnapshots(graph, page.data);
    progress.snapshots += page.data.length;
    onProgress(progress);
  }
  for await (const page of client.edges.pages({ brain_id: brainId, limit: 200 }, { signal })) {
    addEdges(graph, page.data);
    progress.edges += page.data.length;
    progress.edgesTotal = page.total;
    onProgress(progress);
  }
  sizeByDegree(graph);
  return graph;
}
