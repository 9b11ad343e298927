import iterate from 'graphology-layout-forceatlas2/iterate.js';

/**
 * ForceAtlas2 off the main thread, as a module worker of our own (layout.ts).
 * graphology-layout-forceatlas2/worker builds its worker from a Blob URL, which the explorer's
 * Content-Security-Policy (script-src 'self') refuses; this file is served from /assets/ like
 * the page's own script.
 *
 * The worker iterates freely, instead of waiting for the page to ask for each iteration as the
 * library's worker does: without a GPU the page is busy drawing 30,000 edges for 100–300 ms a
 * frame, and a layout that waits for it made a few dozen iterations in its time, leaving a big
 * brain on its starting spiral. It posts the positions after a batch of FRAME_MS only when the
 * page has taken the last ones ('ack'): positions posted faster than the page can draw them
 * queued up and starved the page's own timers and input.
 */
const FRAME_MS = 120;

let running = false;
let awaitingAck = false;

interface Start {
  type: 'start';
  settings: object;
  nodes: ArrayBuffer;
  edges: ArrayBuffer;
}

self.addEventListener('message', (event: MessageEvent<Start | { type: 'stop' } | { type: 'ack' }>) => {
  const message = event.data;
  if (message.type === 'ack') {
    awaitingAck = false;
    return;
  }
  if (message.type === 'stop') {
    running = false;
    return;
  }
  const { settings } = message;
  const nodes = new Float32Array(message.nodes);
  const edges = new Float32Array(message.edges);
  running = true;
  const batch = () => {
    if (!running) return;
    const until = performance.now() + FRAME_MS;
    do iterate(settings, nodes, edges);
    while (performance.now() < until);
    if (!awaitingAck) {
      awaitingAck = true;
      const copy = nodes.slice();
      self.postMessage({ nodes: copy.buffer }, { transfer: [copy.buffer] });
    }
    setTimeout(batch, 0);
  };
  batch();
});
