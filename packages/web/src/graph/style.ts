/**
 * Colours and sizes of the graph and its legend. Snapshot types and edge types each get a hue far
 * from the others; `contradicts` is red and drawn thicker, and no other edge type is close to
 * red, so a contradiction is never mistaken for anything else.
 */
export const SNAPSHOT_TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'] as const;
export type SnapshotType = (typeof SNAPSHOT_TYPES)[number];

export const EDGE_TYPES = ['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

export const NODE_COLOURS: Record<SnapshotType, string> = {
  Belief: '#4e79a7',
  Model: '#59a14f',
  Rule: '#b07aa1',
  Conviction: '#f28e2b',
  Principle: '#76b7b2',
};
export const UNKNOWN_NODE_COLOUR = '#9c9c9c';

export const EDGE_COLOURS: Record<EdgeType, string> = {
  supports: '#2e7d32',
  contradicts: '#d62728',
  elaborates: '#1f77b4',
  caused_by: '#8c564b',
  evolved_from: '#9467bd',
  related_to: '#7f7f7f',
};

/** Automatic edges are drawn in their type's colour, faded: present, but quieter than a person's. */
export const AUTO_EDGE_ALPHA = 0.35;

/** A contradiction is drawn at least this wide, and over every other edge. */
export const CONTRADICTION_MIN_SIZE = 2.4;

/**
 * The canvas's colours for a theme: sigma draws on WebGL and a 2D canvas, which CSS cannot
 * reach, so the page's tokens (src/styles/tokens.css) are mirrored here.
 */
export interface GraphTheme {
  dark: boolean;
  /** Label text, and the halo behind it (the canvas's background). */
  label: string;
  halo: string;
  /** What a node or edge out of focus fades to. */
  faded: string;
  fadedEdge: string;
  /** The ring around the selected node and around search hits. */
  ring: string;
}

export const LIGHT_THEME: GraphTheme = {
  dark: false,
  label: '#1c2230',
  halo: 'rgba(248, 249, 251, 0.92)',
  faded: '#dde1e8',
  fadedEdge: '#e6e9ee',
  ring: '#1c2230',
};

export const DARK_THEME: GraphTheme = {
  dark: true,
  label: '#e6e9f0',
  halo: 'rgba(17, 20, 27, 0.9)',
  faded: '#2c3341',
  fadedEdge: '#222834',
  ring: '#f4f6fb',
};

export function nodeColour(type: string): string {
  return (NODE_COLOURS as Record<string, string>)[type] ?? UNKNOWN_NODE_COLOUR;
}

export function edgeColour(type: string, origin: string | undefined): string {
  const base = (EDGE_COLOURS as Record<string, string>)[type] ?? EDGE_COLOURS.related_to;
  return origin === 'auto' ? withAlpha(base, AUTO_EDGE_ALPHA) : base;
}

/** `#rrggbb` with an alpha, as `rgba()` (sigma's WebGL programs read both). */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** Width in pixels from strength 0..1: a strong edge is about four times as thick as a weak one. */
export function edgeSize(strength: number): number {
  return 0.6 + Math.max(0, Math.min(1, strength)) * 2.4;
}

/**
 * Node size from its degree and its significance (0..1): hubs and significant ideas are bigger
 * and keep their labels longest. The square root of the degree, so hubs stand out without
 * swamping the picture.
 */
export function nodeSize(degree: number, significance = 0): number {
  const sig = Number.isFinite(significance) ? Math.max(0, Math.min(1, significance)) : 0;
  return 3 + Math.min(11, Math.sqrt(degree) * 1.6) + sig * 4;
}

/**
 * Search hits by rank: the first is the most saturated and largest, later ones step down, so
 * the order of the results can be read off the graph. Amber to a light gold, far from every
 * type colour but Conviction's orange, which a hit's ring tells apart.
 */
const RANK_RAMP = ['#d9480f', '#e8590c', '#f76707', '#fd7e14', '#ff922b', '#ffa94d', '#ffc078'];

export function rankColour(rank: number): string {
  return RANK_RAMP[Math.min(RANK_RAMP.length - 1, Math.floor(rank / 2))] as string;
}

/** How much bigger a hit is drawn: 1.9x for the first, down to 1.25x from the tenth on. */
export function rankScale(rank: number): number {
  return 1.25 + 0.65 * Math.max(0, 1 - rank / 10);
}

/** Colour of the snapshots a crystallize run just made. */
export const NEW_COLOUR = '#12b886';
