import iterate from 'graphology-layout-forceatlas2/iterate.js';

/**
 * ForceAtlas2's iterations off the main thread, as a module worker of our own (layout.ts).
 * graphology-layout-forceatlas2/worker builds its worker from a Blob URL, which the explorer's
 * Content-Security-Policy (script-src 'self') refuses; this file is served from /assets/ like
 * the page's own script. The protocol is the library's: node and edge matrices in, nodes out.
 */
let edges = new Float32Array(0);

self.addEventListener(
  'message',
  (event: MessageEvent<{ settings: object; nodes: ArrayBuffer; edges?: ArrayBuffer }>) => {
    const nodes = new Float32Array(event.data.nodes);
    if (event.data.edges) edges = new Float32Array(event.data.edges);
    iterate(event.data.settings, nodes, edges);
    self.postMessage({ nodes: nodes.buffer }, { transfer: [nodes.buffer] });
  },
);
