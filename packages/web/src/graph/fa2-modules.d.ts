// graphology-layout-forceatlas2's internals that layout.ts and layout-worker.ts use, untyped upstream.
declare module 'graphology-layout-forceatlas2/iterate.js' {
  export default function iterate(settings: object, nodes: Float32Array, edges: Float32Array): void;
}
declare module 'graphology-layout-forceatlas2/helpers.js' {
  import type Graph from 'graphology';
  export function graphToByteArrays(
    graph: Graph,
    getEdgeWeight: () => number,
  ): { nodes: Float32Array; edges: Float32Array };
  export function assignLayoutChanges(graph: Graph, nodes: Float32Array, reducer: null): void;
}
declare module 'graphology-layout-forceatlas2/defaults.js' {
  const defaults: Record<string, unknown>;
  export default defaults;
}
