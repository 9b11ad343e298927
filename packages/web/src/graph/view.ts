import Sigma from 'sigma';
import FA2Layout from 'graphology-layout-forceatlas2/worker';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import {
  edgePasses,
  nodePasses,
  NO_FILTERS,
  type EdgeAttributes,
  type Filters,
  type NodeAttributes,
  type SnapGraph,
} from './build.js';
import { CameraPreview, PREVIEW_FROM_NODES } from './camera-preview.js';
import { DIMMED_COLOUR, HIGHLIGHT_COLOUR } from './style.js';

/** How long ForceAtlas2 runs in its worker after a graph loads; a larger graph gets longer. */
const layoutMs = (order: number) => Math.min(8_000, 1_500 + order / 2);

/**
 * The graph on screen: sigma (WebGL) over a graphology graph, the layout in a web worker
 * (graphology-layout-forceatlas2/worker), and what the user asked to see — filters, a search's
 * highlighted results, the selected snapshot — applied by sigma's reducers, so the graph itself
 * is never copied or rebuilt for a change of view.
 */
export class GraphView {
  readonly graph: SnapGraph;
  private readonly renderer: Sigma<NodeAttributes, EdgeAttributes>;
  private layout: FA2Layout | undefined;
  private layoutTimer: ReturnType<typeof setTimeout> | undefined;
  private onLayoutStopped: (() => void) | undefined;
  private filters: Filters = NO_FILTERS;
  private highlighted = new Set<string>();
  private selected = '';
  private focus: Set<string> | undefined;
  private readonly preview: CameraPreview<NodeAttributes, EdgeAttributes> | undefined;

  /**
   * `filters` apply from the first frame: sigma draws in its constructor, and a first draw of a big
   * graph is the costliest there is without a GPU (SwiftShader fills every edge at its starting,
   * longest length), so a second one for the filters doubled it: 2.3 s more to the first full
   * render at 10,000 snapshots and 30,000 edges (docs/performance.md).
   */
  constructor(graph: SnapGraph, container: HTMLElement, filters: Filters = NO_FILTERS) {
    this.graph = graph;
    this.filters = filters;
    this.renderer = new Sigma(graph, container, {
      defaultEdgeType: 'arrow',
      // Labels: sigma keeps at most a few per grid cell, the biggest (highest-degree) nodes first,
      // and only for nodes drawn at least this many pixels wide — so zooming in reveals more.
      labelRenderedSizeThreshold: 7,
      labelDensity: 0.5,
      labelGridCellSize: 100,
      zIndex: true,
      minEdgeThickness: 0.5,
      hideEdgesOnMove: graph.size > 20_000,
      nodeReducer: (node, data) => this.reduceNode(node, data),
      edgeReducer: (edge, data) => this.reduceEdge(edge, data),
    });
    // A small graph is drawn in a frame even without a GPU: it moves as drawn.
    if (graph.order >= PREVIEW_FROM_NODES) this.preview = new CameraPreview(this.renderer);
  }

  on(event: 'clickNode', listener: (node: string) => void): void;
  on(event: 'clickStage', listener: () => void): void;
  on(event: 'clickNode' | 'clickStage', listener: (node: string) => void): void {
    if (event === 'clickNode') this.renderer.on('clickNode', ({ node }) => listener(node));
    else this.renderer.on('clickStage', () => (listener as () => void)());
  }

  /** Runs the layout for a while; `onStopped` is called when it stops (on its timer or when killed). */
  startLayout(onStopped?: () => void): void {
    this.stopLayout();
    if (this.graph.order < 2) {
      onStopped?.();
      return;
    }
    const settings = forceAtlas2.inferSettings(this.graph);
    this.layout = new FA2Layout(this.graph, { settings: { ...settings, slowDown: 5 } });
    this.layout.start();
    this.onLayoutStopped = onStopped;
    this.layoutTimer = setTimeout(() => this.stopLayout(), layoutMs(this.graph.order));
  }

  stopLayout(): void {
    if (this.layoutTimer) clearTimeout(this.layoutTimer);
    this.layout?.kill();
    this.layout = undefined;
    const stopped = this.onLayoutStopped;
    this.onLayoutStopped = undefined;
    stopped?.();
  }

  get layoutRunning(): boolean {
    return this.layout?.isRunning() ?? false;
  }

  setFilters(filters: Filters): void {
    this.filters = filters;
    this.renderer.refresh();
  }

  setHighlighted(ids: Iterable<string>): void {
    this.highlighted = new Set([...ids].filter((id) => this.graph.hasNode(id)));
    this.renderer.refresh();
  }

  setSelected(id: string): void {
    this.selected = this.graph.hasNode(id) ? id : '';
    this.renderer.refresh();
  }

  /** Shows only these snapshots (a neighbourhood), or everything again with undefined. */
  setFocus(ids: Iterable<string> | undefined): void {
    this.focus = ids ? new Set(ids) : undefined;
    this.renderer.refresh();
  }

  /** Moves the camera to frame these snapshots: one is centred close up, several are fitted. */
  flyTo(ids: readonly string[]): void {
    const points = ids
      .filter((id) => this.graph.hasNode(id))
      .map((id) => this.renderer.getNodeDisplayData(id))
      .filter((data): data is NonNullable<typeof data> => data !== undefined);
    if (points.length === 0) return;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const span = Math.max(maxX - minX, maxY - minY);
    const ratio = points.length === 1 ? 0.25 : Math.min(1, Math.max(0.1, span * 1.4));
    void this.renderer.getCamera().animate({ x: (minX + maxX) / 2, y: (minY + maxY) / 2, ratio }, { duration: 500 });
  }

  resetCamera(): void {
    void this.renderer.getCamera().animatedReset({ duration: 300 });
  }

  refresh(): void {
    this.renderer.refresh();
  }

  kill(): void {
    this.stopLayout();
    this.preview?.kill();
    this.renderer.kill();
  }

  private nodeShown(node: string, data: NodeAttributes): boolean {
    if (this.focus && !this.focus.has(node)) return false;
    return node === this.selected || nodePasses(data, this.filters);
  }

  private reduceNode(node: string, data: NodeAttributes): Partial<NodeAttributes> & { [extra: string]: unknown } {
    if (!this.nodeShown(node, data)) return { ...data, hidden: true };
    if (node === this.selected)
      return { ...data, highlighted: true, forceLabel: true, zIndex: 2, size: data.size * 1.5 };
    if (this.highlighted.has(node))
      return { ...data, color: HIGHLIGHT_COLOUR, forceLabel: true, zIndex: 1, size: data.size * 1.3 };
    if (this.highlighted.size > 0) return { ...data, color: DIMMED_COLOUR, label: '', zIndex: 0 };
    return { ...data };
  }

  private reduceEdge(edge: string, data: EdgeAttributes): Partial<EdgeAttributes> & { [extra: string]: unknown } {
    if (!edgePasses(data, this.filters)) return { ...data, hidden: true };
    const [source, target] = this.graph.extremities(edge);
    if (!this.nodeShown(source, this.graph.getNodeAttributes(source))) return { ...data, hidden: true };
    if (!this.nodeShown(target, this.graph.getNodeAttributes(target))) return { ...data, hidden: true };
    if (this.selected && (source === this.selected || target === this.selected)) return { ...data, zIndex: 1 };
    if (this.highlighted.size > 0 && !this.highlighted.has(source) && !this.highlighted.has(target)) {
      return { ...data, color: DIMMED_COLOUR };
    }
    return { ...data };
  }
}
