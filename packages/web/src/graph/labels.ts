import type Sigma from 'sigma';
import type { Attributes } from 'graphology-types';
import type { GraphTheme } from './style.js';

/**
 * Node labels that never overlap. Sigma picks candidate labels per cell of a grid (the biggest
 * nodes first, more as one zooms in) and then labels every node with `forceLabel`; it has no
 * notion of one label covering another. This placer sits in sigma's label hook:
 * - at the first label of each frame it places the labels that must show (the selection, its
 *   neighbours, search hits, new snapshots, in that order), each right of its node or else
 *   left, above or below, wherever it first fits; one that fits nowhere is drawn anyway;
 * - in a graph of up to SMALL nodes, every other label is then placed, the biggest nodes first,
 *   on whichever side of its node it overlaps no label and no node; in a bigger one, sigma's
 *   grid picks the candidates and each is drawn right or left of its node where it overlaps no
 *   label placed before it: either way density follows the space there is, at any zoom;
 * - no label runs off the canvas: one that would is tried on the other side;
 * - a label is anchored to its node: where nodes are known (a graph of up to SMALL nodes), a side
 *   is taken only if no other node comes within ANCHOR_MARGIN px of being as near the label as its
 *   own node, so a label never reads as another node's. A label that must show and has no such
 *   side is drawn right or left of its node with a thin line joining the two.
 * Text has a halo in the canvas's background colour, so it reads over edges.
 */

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const SIZE = 12;
const PAD = 3;
/** Up to this many nodes, each frame plans every label, keeping off nodes too. */
const SMALL = 1_500;
/** How much nearer than any other node a label's own node must be, in pixels. */
const ANCHOR_MARGIN = 6;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A node on screen: its centre and radius in viewport pixels. */
interface Disc {
  key: string;
  x: number;
  y: number;
  r: number;
}

/** Label data as sigma hands it to a label drawer: viewport coordinates and size. */
interface LabelData {
  key: string;
  label?: string | null;
  x: number;
  y: number;
  size: number;
  hidden?: boolean;
  strong?: boolean;
}

export class LabelPlacer<N extends Attributes, E extends Attributes> {
  private boxes: Box[] = [];
  private obstacles: Box[] = [];
  private discs: Disc[] = [];
  /** Labels placed where another node may look nearer: drawn with a line to their node. */
  private tethered = new Map<string, { x: number; y: number; r: number }>();
  private bounds = { w: Infinity, h: Infinity };
  /** Whether this frame's labels were all planned up front (a small graph). */
  private planned = false;
  private placedAt = new Map<string, Box>();
  private framePlaced = false;
  private readonly widths = new Map<string, number>();
  private readonly measure = document.createElement('canvas').getContext('2d');
  /** Labels drawn in the last frame: what a person sees (sigma's own set also holds skipped ones). */
  readonly drawn = new Set<string>();
  /** Where each of those was drawn, in viewport pixels (the browser tests read it). */
  readonly drawnAt = new Map<string, Box>();
  /** Those of them drawn with a line to their node. */
  readonly drawnTethered = new Set<string>();

  constructor(
    private renderer: Sigma<N, E> | undefined,
    private theme: GraphTheme,
    /** The nodes whose labels must show, most important first. */
    private readonly mustShow: () => readonly string[],
  ) {}

  attach(renderer: Sigma<N, E>): void {
    this.renderer = renderer;
    renderer.on('beforeRender', () => {
      this.framePlaced = false;
      this.drawn.clear();
      this.drawnAt.clear();
      this.drawnTethered.clear();
    });
  }

  setTheme(theme: GraphTheme): void {
    this.theme = theme;
  }

  /** sigma's `defaultDrawNodeLabel`. */
  readonly drawLabel = (context: CanvasRenderingContext2D, data: LabelData): void => {
    if (!data.label) return;
    if (!this.framePlaced) this.placeForced();
    const planned = this.placedAt.get(data.key);
    if (!planned && this.planned) return;
    const box = planned ?? this.fit(data, ['right', 'left']);
    if (!box) return;
    if (!planned) this.boxes.push(box);
    const node = this.tethered.get(data.key);
    if (node) {
      this.tether(context, node, box);
      this.drawnTethered.add(data.key);
    }
    this.paint(context, data.label, box, data.strong === true);
    this.drawn.add(data.key);
    this.drawnAt.set(data.key, box);
  };

  /** sigma's `defaultDrawNodeHover`: a ring around the node, and its label (hovered or selected). */
  readonly drawHover = (context: CanvasRenderingContext2D, data: LabelData): void => {
    context.beginPath();
    context.arc(data.x, data.y, data.size + 2.5, 0, Math.PI * 2);
    context.lineWidth = 2;
    context.strokeStyle = this.theme.ring;
    context.stroke();
    if (!data.label) return;
    const box = this.placedAt.get(data.key) ?? this.boxAt(data, 'right');
    this.paint(context, data.label, box, true);
  };

  private placeForced(): void {
    this.framePlaced = true;
    this.boxes = [];
    this.obstacles = [];
    this.discs = [];
    this.tethered.clear();
    this.placedAt.clear();
    this.planned = false;
    const renderer = this.renderer;
    if (!renderer) return;
    const { width, height } = renderer.getDimensions();
    this.bounds = { w: width, h: height };
    const graph = renderer.getGraph();
    const others: LabelData[] = [];
    if (graph.order <= SMALL) {
      graph.forEachNode((node) => {
        const display = renderer.getNodeDisplayData(node);
        if (!display || display.hidden) return;
        const { x, y } = renderer.framedGraphToViewport(display);
        const size = renderer.scaleSize(display.size);
        const r = size + 1;
        this.obstacles.push({ x: x - r, y: y - r, w: 2 * r, h: 2 * r });
        this.discs.push({ key: node, x, y, r: size });
        if (display.label) others.push({ key: node, label: display.label, x, y, size });
      });
    }
    for (const node of this.mustShow()) {
      const display = renderer.getNodeDisplayData(node);
      if (!display || display.hidden || !display.label || this.placedAt.has(node)) continue;
      const { x, y } = renderer.framedGraphToViewport(display);
      const data = { key: node, label: display.label, x, y, size: renderer.scaleSize(display.size) };
      let box = this.fit(data, ALL_SIDES) ?? this.fit(data, ALL_SIDES, { avoidNodes: false });
      if (!box) {
        // No anchored side: the one nearest its node, drawn with a line to it.
        box = this.fit(data, ['right', 'left'], { avoidNodes: false, anchored: false }) ?? this.boxAt(data, 'right');
        this.tethered.set(node, { x, y, r: data.size });
      }
      this.boxes.push(box);
      this.placedAt.set(node, box);
    }
    if (graph.order > SMALL) return;
    this.planned = true;
    others.sort((a, b) => b.size - a.size);
    for (const data of others) {
      if (this.placedAt.has(data.key)) continue;
      const box = this.fit(data, ALL_SIDES);
      if (!box) continue;
      this.boxes.push(box);
      this.placedAt.set(data.key, box);
    }
  }

  /**
   * The first side where the label is on the canvas and overlaps no label; unless told otherwise,
   * also one that overlaps no node and is anchored (no other node about as near to it).
   */
  private fit(data: LabelData, sides: readonly Side[], { avoidNodes = true, anchored = true } = {}): Box | undefined {
    for (const side of sides) {
      const box = this.boxAt(data, side);
      if (box.x < 0 || box.y < 0 || box.x + box.w > this.bounds.w || box.y + box.h > this.bounds.h) continue;
      if (this.boxes.some((other) => overlaps(box, other))) continue;
      if (avoidNodes && this.obstacles.some((other) => overlaps(box, other))) continue;
      if (anchored && !this.anchored(box, data)) continue;
      return box;
    }
    return undefined;
  }

  /** Whether the box's own node is nearer to it, by ANCHOR_MARGIN, than any other node drawn. */
  private anchored(box: Box, data: LabelData): boolean {
    const own = gapTo(box, data.x, data.y) - data.size;
    return this.discs.every(
      (disc) => disc.key === data.key || gapTo(box, disc.x, disc.y) - disc.r > own + ANCHOR_MARGIN,
    );
  }

  private boxAt(data: LabelData, side: Side): Box {
    const w = this.width(shorten(data.label ?? '')) + 2 * PAD;
    const h = SIZE + 2 * PAD;
    const gap = data.size + 3;
    if (side === 'right') return { x: data.x + gap, y: data.y - h / 2, w, h };
    if (side === 'left') return { x: data.x - gap - w, y: data.y - h / 2, w, h };
    if (side === 'above') return { x: data.x - w / 2, y: data.y - gap - h, w, h };
    return { x: data.x - w / 2, y: data.y + gap, w, h };
  }

  private width(label: string): number {
    let width = this.widths.get(label);
    if (width === undefined) {
      if (this.measure) this.measure.font = font(true);
      width = this.measure ? this.measure.measureText(label).width : label.length * 7;
      if (this.widths.size > 20_000) this.widths.clear();
      this.widths.set(label, width);
    }
    return width;
  }

  /** A thin line from the node's rim to the nearest point of its label's box. */
  private tether(context: CanvasRenderingContext2D, node: { x: number; y: number; r: number }, box: Box): void {
    const tx = Math.max(box.x, Math.min(node.x, box.x + box.w));
    const ty = Math.max(box.y, Math.min(node.y, box.y + box.h));
    const length = Math.hypot(tx - node.x, ty - node.y);
    if (length <= node.r) return;
    context.beginPath();
    context.moveTo(node.x + ((tx - node.x) * node.r) / length, node.y + ((ty - node.y) * node.r) / length);
    context.lineTo(tx, ty);
    context.lineWidth = 1.5;
    context.strokeStyle = this.theme.label;
    context.stroke();
  }

  private paint(context: CanvasRenderingContext2D, label: string, box: Box, strong: boolean): void {
    context.font = font(strong);
    context.textBaseline = 'middle';
    context.lineJoin = 'round';
    context.lineWidth = 4;
    context.strokeStyle = this.theme.halo;
    const x = box.x + PAD;
    const y = box.y + box.h / 2;
    const text = shorten(label);
    context.strokeText(text, x, y);
    context.fillStyle = this.theme.label;
    context.fillText(text, x, y);
  }
}

type Side = 'right' | 'left' | 'above' | 'below';
const ALL_SIDES: readonly Side[] = ['right', 'left', 'above', 'below'];

/** The distance from a point to a box (0 inside it). */
export function gapTo(box: Box, x: number, y: number): number {
  const dx = Math.max(box.x - x, 0, x - (box.x + box.w));
  const dy = Math.max(box.y - y, 0, y - (box.y + box.h));
  return Math.hypot(dx, dy);
}

/** A long name is cut to this many characters on the canvas (the panel shows it whole). */
const MAX_CHARS = 36;
const shorten = (label: string) => (label.length > MAX_CHARS ? `${label.slice(0, MAX_CHARS - 1).trimEnd()}…` : label);

const font = (strong: boolean) => `${strong ? 600 : 450} ${SIZE}px ${FONT}`;

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
