import Sigma from 'sigma';
import type { CameraState } from 'sigma/types';
import { EdgeCurvedArrowProgram } from '@sigma/edge-curve';
import { curveParallelEdges, curvePairOf } from './parallel.js';
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
import { LabelPlacer } from './labels.js';
import { settleInPage, SETTLE_IN_PAGE, WorkerLayout } from './layout.js';
import {
  CONTRADICTION_MIN_SIZE,
  LIGHT_THEME,
  withAlpha,
  NEW_COLOUR,
  rankColour,
  rankScale,
  type GraphTheme,
} from './style.js';

/**
 * How far from the canvas's edges a flight puts the snapshots it frames, in pixels: room for a
 * label beside a node at the sides, for the Fit button at the top and the status line at the bottom.
 */
export const FLY_INSETS = { top: 64, right: 48, bottom: 80, left: 48 };

type Reduced<T> = Partial<T> & { [extra: string]: unknown };

/**
 * An edge's colour made quieter, for a big brain at rest: tens of thousands of edges at full
 * strength are a coloured fog over the nodes. Cached: there are a dozen edge colours.
 */
const quietColours = new Map<string, string>();
const quiet = (colour: string): string => {
  let made = quietColours.get(colour);
  if (made === undefined) {
    made = colour.startsWith('#') ? withAlpha(colour, 0.35) : colour.replace(/[\d.]+\)$/, '0.14)');
    quietColours.set(colour, made);
  }
  return made;
};

/**
 * The graph on screen: sigma (WebGL) over a graphology graph, laid out by layout.ts, and what
 * the user asked to see — filters, a search's hits by rank, the selected snapshot and its
 * neighbours, snapshots a crystallize run just made — applied by sigma's reducers, so the graph
 * itself is never copied or rebuilt for a change of view. Whatever is in focus keeps its colour
 * and its label; everything else fades to the background.
 */
export class GraphView {
  readonly graph: SnapGraph;
  readonly renderer: Sigma<NodeAttributes, EdgeAttributes>;
  readonly labels: LabelPlacer<NodeAttributes, EdgeAttributes>;
  private readonly layout = new WorkerLayout();
  private filters: Filters = NO_FILTERS;
  private hits = new Map<string, number>();
  private fresh = new Set<string>();
  private selected = '';
  private neighbours = new Set<string>();
  private focus: Set<string> | undefined;
  private theme: GraphTheme;
  private readonly preview: CameraPreview<NodeAttributes, EdgeAttributes> | undefined;
  /**
   * Node sizes shrink as a brain grows, so that at the fitted zoom nodes do not cover each other
   * (and the edges): full size up to a few hundred nodes, a third at 10,000. Zooming in grows them.
   */
  private readonly sizeScale: number;

  /**
   * `filters` apply from the first frame: sigma draws in its constructor, and a first draw of a big
   * graph is the costliest there is without a GPU (SwiftShader fills every edge at its starting,
   * longest length), so a second one for the filters doubled it: 2.3 s more to the first full
   * render at 10,000 snapshots and 30,000 edges (docs/performance.md).
   */
  constructor(graph: SnapGraph, container: HTMLElement, filters: Filters = NO_FILTERS, theme = LIGHT_THEME) {
    this.graph = graph;
    this.filters = filters;
    this.theme = theme;
    if (graph.order <= SETTLE_IN_PAGE) settleInPage(graph);
    curveParallelEdges(graph);
    // An edge made or removed in the page changes its pair's curves.
    const recurve = ({ source, target }: { source: string; target: string }) => curvePairOf(graph, source, target);
    graph.on('edgeAdded', recurve);
    graph.on('edgeDropped', recurve);
    this.labels = new LabelPlacer(undefined, theme, () => this.mustLabel());
    const small = graph.order < 200;
    this.sizeScale = Math.min(1, Math.max(0.25, Math.sqrt(400 / Math.max(1, graph.order))));
    this.renderer = new Sigma(graph, container, {
      defaultEdgeType: 'arrow',
      // sigma's program types are generic over plain attributes; ours are a narrower shape of them.
      edgeProgramClasses: { curved: EdgeCurvedArrowProgram as never },
      // Candidates for labels: a few per grid cell, the biggest nodes first, and only nodes drawn
      // at least this wide, so zooming in reveals more; labels.ts then drops any that would
      // overlap another, so the density follows the room there is.
      labelRenderedSizeThreshold: small ? 1 : 2,
      labelDensity: small ? 3 : 1,
      labelGridCellSize: 80,
      defaultDrawNodeLabel: this.labels.drawLabel as never,
      defaultDrawNodeHover: this.labels.drawHover as never,
      stagePadding: 48,
      zIndex: true,
      minEdgeThickness: 0.5,
      // Zoomed in so far that nothing is left on screen, or out to a speck, helps no one.
      minCameraRatio: Math.max(0.02, Math.min(0.35, 2 / Math.sqrt(graph.order + 1))),
      maxCameraRatio: 2.5,
      hideEdgesOnMove: graph.size > 20_000,
      nodeReducer: (node, data) => this.reduceNode(node, data as Reduced<NodeAttributes>),
      edgeReducer: (edge, data) => this.reduceEdge(edge, data as Reduced<EdgeAttributes>),
    });
    this.labels.attach(this.renderer);
    // sigma's first frame, drawn in its constructor, had labels placed without the renderer's
    // measures (canvas bounds, nodes to keep off): a small graph is drawn again at once, a big
    // one when its layout worker moves it a moment later (a second full frame costs seconds there).
    if (graph.order <= SETTLE_IN_PAGE) this.renderer.scheduleRefresh();
    // A small graph is drawn in a frame even without a GPU: it moves as drawn.
    if (graph.order >= PREVIEW_FROM_NODES) this.preview = new CameraPreview(this.renderer);
    // The user's hand beats our camera moves: a press during the fit after the layout (or a
    // flight to a search hit) stops that animation, else every frame of it puts the camera back
    // where the drag has just taken it from. sigma's wheel zoom replaces an animation itself.
    const stopAnimation = () => this.stopCameraAnimation();
    this.renderer.getMouseCaptor().on('mousedown', stopAnimation);
    this.renderer.getTouchCaptor().on('touchdown', stopAnimation);
  }

  /**
   * sigma has no call to stop an animation; starting another cancels it, and an empty target
   * leaves the camera where it is.
   */
  private stopCameraAnimation(): void {
    const camera = this.renderer.getCamera();
    if (camera.isAnimated()) void camera.animate({}, { duration: 1 });
  }

  on(event: 'clickNode', listener: (node: string) => void): void;
  on(event: 'clickStage', listener: () => void): void;
  on(event: 'clickNode' | 'clickStage', listener: (node: string) => void): void {
    if (event === 'clickNode') this.renderer.on('clickNode', ({ node }) => listener(node));
    else this.renderer.on('clickStage', () => (listener as () => void)());
  }

  /**
   * A big graph settles in a worker after its first frame, then the camera is fitted to where it
   * settled; a small one settled before its first frame (`onStopped` is called at once).
   */
  startLayout(onStopped?: () => void): void {
    if (this.graph.order <= SETTLE_IN_PAGE) {
      onStopped?.();
      return;
    }
    this.layout.start(this.graph, () => {
      if (!this.selected && this.hits.size === 0 && this.fresh.size === 0) this.fitAll();
      onStopped?.();
    });
  }

  stopLayout(): void {
    this.layout.stop();
  }

  get layoutRunning(): boolean {
    return this.layout.running;
  }

  setTheme(theme: GraphTheme): void {
    this.theme = theme;
    this.labels.setTheme(theme);
    this.renderer.refresh();
  }

  setFilters(filters: Filters): void {
    this.filters = filters;
    this.renderer.refresh();
  }

  /** Search hits, best first: coloured and sized by their rank. */
  setHits(ids: readonly string[]): void {
    this.hits = new Map(ids.filter((id) => this.graph.hasNode(id)).map((id, rank) => [id, rank]));
    this.renderer.refresh();
  }

  /** Snapshots just made (by a crystallize run): drawn in their own colour until the next change. */
  setFresh(ids: readonly string[]): void {
    this.fresh = new Set(ids.filter((id) => this.graph.hasNode(id)));
    this.renderer.refresh();
  }

  setSelected(id: string): void {
    this.selected = this.graph.hasNode(id) ? id : '';
    this.neighbours = this.selected ? new Set(this.graph.neighbors(this.selected)) : new Set();
    this.renderer.refresh();
  }

  /** The selected node and its neighbours. */
  neighbourhood(id: string): string[] {
    return this.graph.hasNode(id) ? [id, ...this.graph.neighbors(id)] : [];
  }

  /** Shows only these snapshots (a neighbourhood), or everything again with undefined. */
  setFocus(ids: Iterable<string> | undefined): void {
    this.focus = ids ? new Set(ids) : undefined;
    this.renderer.refresh();
  }

  /**
   * Moves the camera to frame these snapshots inside the canvas's free area: the canvas is its
   * own column beside the side panel, and its corners carry the Fit button and the status line,
   * so every snapshot asked for ends at least FLY_INSETS from the edges, with room for a label.
   * The zoom is the flight's first guess (the span with a margin), widened until each one fits.
   */
  flyTo(ids: readonly string[]): void {
    const points = ids
      .filter((id) => this.graph.hasNode(id))
      .map((id) => this.renderer.getNodeDisplayData(id))
      .filter((data): data is NonNullable<typeof data> => data !== undefined && !data.hidden);
    if (points.length === 0) return;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const span = Math.max(maxX - minX, maxY - minY);
    const floor = this.renderer.getSetting('minCameraRatio') ?? 0.05;
    const ceiling = this.renderer.getSetting('maxCameraRatio') ?? 2.5;
    const target = { x: (minX + maxX) / 2, y: (minY + maxY) / 2, angle: 0 };
    let ratio = Math.min(1, Math.max(floor, points.length === 1 ? 0.3 : span * 1.6));
    for (let step = 0; step < 30 && ratio < ceiling && !this.allInside(points, { ...target, ratio }); step++) {
      ratio = Math.min(ceiling, ratio * 1.15);
    }
    void this.renderer.getCamera().animate({ ...target, ratio }, { duration: 450 });
  }

  /** Whether every point lands in the canvas's free area under that camera. */
  private allInside(points: ReadonlyArray<{ x: number; y: number }>, cameraState: CameraState): boolean {
    const { width, height } = this.renderer.getDimensions();
    return points.every((point) => {
      const { x, y } = this.renderer.framedGraphToViewport(point, { cameraState });
      return (
        x >= FLY_INSETS.left && x <= width - FLY_INSETS.right && y >= FLY_INSETS.top && y <= height - FLY_INSETS.bottom
      );
    });
  }

  /** The whole graph on the canvas. */
  fitAll(): void {
    void this.renderer.getCamera().animatedReset({ duration: 400 });
  }

  refresh(): void {
    this.renderer.refresh();
  }

  kill(): void {
    this.layout.stop();
    this.preview?.kill();
    this.renderer.kill();
  }

  /** Labels that must show, most important first (labels.ts places them before any other). */
  private mustLabel(): string[] {
    const ids: string[] = [];
    if (this.selected) ids.push(this.selected);
    ids.push(...this.hits.keys(), ...this.fresh);
    if (this.selected) ids.push(...this.neighbours);
    return ids;
  }

  /** Whether anything is singled out: then what is not in focus fades. */
  private get singling(): boolean {
    return this.selected !== '' || this.hits.size > 0 || this.fresh.size > 0;
  }

  private nodeShown(node: string, data: NodeAttributes): boolean {
    if (this.focus && !this.focus.has(node)) return false;
    return node === this.selected || nodePasses(data, this.filters);
  }

  private inFocus(node: string): boolean {
    return node === this.selected || this.neighbours.has(node) || this.hits.has(node) || this.fresh.has(node);
  }

  // The reducers change the object they are given: sigma hands them a copy of the graph's
  // attributes (sigma's addNode and addEdge), and at 10,000 nodes and 30,000 edges a copy more per
  // item, each refresh and each step of the layout, is what they would otherwise cost.

  private reduceNode(node: string, data: Reduced<NodeAttributes>): Reduced<NodeAttributes> {
    if (!this.nodeShown(node, data as NodeAttributes)) {
      data.hidden = true;
      return data;
    }
    data.size = (data.size as number) * this.sizeScale;
    const rank = this.hits.get(node);
    if (node === this.selected) {
      Object.assign(data, { highlighted: true, forceLabel: true, strong: true, zIndex: 4 });
      data.size *= 1.5;
    } else if (rank !== undefined) {
      Object.assign(data, { color: rankColour(rank), forceLabel: true, strong: rank < 3, zIndex: 3 });
      data.label = `${rank + 1} · ${data.label}`;
      data.size *= rankScale(rank);
    } else if (this.fresh.has(node)) {
      Object.assign(data, { color: NEW_COLOUR, forceLabel: true, strong: true, zIndex: 3 });
      data.size *= 1.4;
    } else if (this.neighbours.has(node)) {
      Object.assign(data, { forceLabel: true, zIndex: 2 });
    } else if (this.singling) {
      Object.assign(data, { color: this.theme.faded, label: '', zIndex: 0 });
    }
    return data;
  }

  private reduceEdge(edge: string, data: Reduced<EdgeAttributes>): Reduced<EdgeAttributes> {
    const [source, target] = this.graph.extremities(edge);
    if (
      !edgePasses(data as EdgeAttributes, this.filters) ||
      !this.nodeShown(source, this.graph.getNodeAttributes(source)) ||
      !this.nodeShown(target, this.graph.getNodeAttributes(target))
    ) {
      data.hidden = true;
      return data;
    }
    const contradiction = data.edgeType === 'contradicts';
    if (contradiction) data.size = Math.max(data.size as number, CONTRADICTION_MIN_SIZE * this.sizeScale);
    data.zIndex = contradiction ? 2 : 1;
    if (!this.singling) {
      if (this.sizeScale < 0.5) data.color = quiet(data.color as string);
      return data;
    }
    const touchesSelection = this.selected !== '' && (source === this.selected || target === this.selected);
    const betweenFocused = this.selected === '' && this.inFocus(source) && this.inFocus(target);
    if (touchesSelection || betweenFocused) data.zIndex = 3;
    else Object.assign(data, { color: this.theme.fadedEdge, zIndex: 0 });
    return data;
  }
}
