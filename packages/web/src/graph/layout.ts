import forceAtlas2 from 'graphology-layout-forceatlas2';
import FA2_DEFAULTS from 'graphology-layout-forceatlas2/defaults.js';
import { assignLayoutChanges, graphToByteArrays } from 'graphology-layout-forceatlas2/helpers.js';
import type { SnapGraph } from './build.js';

/**
 * Where the nodes go. ForceAtlas2 with strong gravity, so a brain of several components (a few
 * linked ideas and many loose ones is common) stays one compact picture instead of outliers
 * flung to the canvas's edges with the clusters shrunk to dots in the middle; LinLog mode, so
 * clusters pull together and read as clusters.
 *
 * A brain up to SETTLE_IN_PAGE snapshots is laid out before its first frame (tens of
 * milliseconds at a few hundred nodes): it opens settled, fitted to the canvas, nothing moving.
 * A larger one opens on its breadth-first spiral (build.ts) and settles in a web worker while it
 * can already be explored, for a time that grows with its size.
 */
export const SETTLE_IN_PAGE = 1_500;

const settingsFor = (graph: SnapGraph) =>
  graph.order > SETTLE_IN_PAGE
    ? // In the worker: the library's settings for the graph's size, Barnes-Hut included, which
      // untangle thousands of nodes within the worker's few seconds (LinLog converges too slowly).
      { ...forceAtlas2.inferSettings(graph), slowDown: 5 }
    : {
        ...forceAtlas2.inferSettings(graph),
        linLogMode: true,
        strongGravityMode: true,
        gravity: graph.order < 100 ? 0.4 : 0.08,
        scalingRatio: graph.order < 100 ? 6 : 2,
        barnesHutOptimize: graph.order > 300,
      };

/** Iterations for the in-page layout: fewer as the graph grows, so it stays well under 100 ms. */
const iterationsFor = (order: number) => (order <= 100 ? 600 : order <= 500 ? 250 : 120);

/** How long the worker runs after a big graph loads; a larger graph gets longer. */
const workerMs = (order: number) => Math.min(8_000, 1_500 + order / 2);

/**
 * How long a worker may take to send its first step before it is given up. Its running time
 * (workerMs) counts from that first step, not from the start: a page busy enough to delay the
 * worker's start would otherwise stop it before it had moved a node.
 */
const WORKER_FIRST_STEP_MS = 30_000;

export function settleInPage(graph: SnapGraph): void {
  if (graph.order < 2) return;
  forceAtlas2.assign(graph, { iterations: iterationsFor(graph.order), settings: settingsFor(graph) });
}

/**
 * Runs the layout in a worker (layout-worker.ts) for a while, writing each step's positions into
 * the graph (sigma redraws); `onStopped` is called once, when it stops or is killed.
 */
export class WorkerLayout {
  private worker: Worker | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private onStopped: (() => void) | undefined;

  start(graph: SnapGraph, onStopped: () => void): void {
    this.stop();
    this.onStopped = onStopped;
    const settings = { ...FA2_DEFAULTS, ...settingsFor(graph) };
    const matrices = graphToByteArrays(graph, () => 1);
    const worker = new Worker(new URL('./layout-worker.ts', import.meta.url), { type: 'module' });
    this.worker = worker;
    let deadline: number | undefined;
    worker.addEventListener('message', (event: MessageEvent<{ nodes: ArrayBuffer }>) => {
      if (this.worker !== worker) return;
      assignLayoutChanges(graph, new Float32Array(event.data.nodes), null);
      if (deadline === undefined) {
        deadline = performance.now() + workerMs(graph.order);
        this.stopAfter(workerMs(graph.order));
      }
      // The timer stops the layout; this too, should the page be too busy for timers.
      if (performance.now() > deadline) this.stop();
      else worker.postMessage({ type: 'ack' });
    });
    worker.addEventListener('error', () => this.stop());
    const { nodes, edges } = matrices;
    worker.postMessage({ type: 'start', settings, nodes: nodes.buffer, edges: edges.buffer }, [
      nodes.buffer,
      edges.buffer,
    ]);
    this.stopAfter(WORKER_FIRST_STEP_MS);
  }

  private stopAfter(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop(), ms);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.worker?.terminate();
    this.worker = undefined;
    const stopped = this.onStopped;
    this.onStopped = undefined;
    stopped?.();
  }

  get running(): boolean {
    return this.worker !== undefined;
  }
}
