import type { Edge, SnapgraphClient, Snapshot } from '@snapgraph/client';
import { addEdges, addSnapshots, createGraph, placeByBreadth, sizeByDegree, type SnapGraph } from './build.js';

export interface LoadProgress {
  snapshots: number;
  edges: number;
  /** The brain's edge count, once the brain has said it. */
  edgesTotal: number | undefined;
}

/** Records are added to the graph, and progress reported, this many at a time. */
const BATCH = 500;

/**
 * A brain's whole graph in one request: the brain's export stream (`GET /v1/brains/{id}/export`,
 * design §15.1), read line by line as it arrives. Its snapshots come before its edges, so each
 * edge finds both ends already in the graph. The stream is let go as soon as the records after
 * the edges begin (tombstones, memories, knowledge: nothing the explorer draws).
 *
 * One request, not a page walk: a brain of 10,000 snapshots and 30,000 edges is 250 pages of
 * the lists, more than a Free key's 60 reads a minute, so a walk of them could never finish
 * (docs/performance.md). The brain's own counts (one more small request, alongside) give the
 * progress its total.
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
  const options = signal ? { signal } : {};
  // The count is only for the progress bar: without it the load goes on.
  const counted = client.brains.get(brainId, options).then(
    (brain) => {
      progress.edgesTotal = brain.edge_count;
    },
    () => undefined,
  );
  let snapshots: Snapshot[] = [];
  let edges: Edge[] = [];
  const flush = () => {
    if (snapshots.length > 0) timed(() => addSnapshots(graph, snapshots));
    if (edges.length > 0) timed(() => addEdges(graph, edges));
    progress.snapshots += snapshots.length;
    progress.edges += edges.length;
    snapshots = [];
    edges = [];
    onProgress(progress);
  };
  for await (const line of client.brains.export(brainId, options)) {
    if (!('kind' in line) || line.kind === 'brain') continue;
    if (line.kind === 'snapshot') snapshots.push(line.data as unknown as Snapshot);
    else if (line.kind === 'edge') edges.push(line.data as unknown as Edge);
    // Leaving the loop cancels the rest of the stream.
    else break;
    if (snapshots.length + edges.length >= BATCH) flush();
  }
  await counted;
  flush();
  timed(() => {
    sizeByDegree(graph);
    placeByBreadth(graph);
  });
  // User Timing entries: what the load cost, split into waiting for the stream and building the
  // graph, for the browser's profiler and packages/web/bench/big-brain.ts.
  const fetchMs = performance.now() - started - buildMs;
  performance.measure('snapgraph:fetch', { start: started, duration: fetchMs });
  performance.measure('snapgraph:build', { start: started, duration: buildMs });
  return graph;
}
