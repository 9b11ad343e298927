/**
 * Colours of the graph and its legend. Snapshot types and edge types each get a hue far from
 * the others; `contradicts` is red, and no other edge type is close to red, so a contradiction
 * is never mistaken for anything else.
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

export const HIGHLIGHT_COLOUR = '#ffb000';
export const DIMMED_COLOUR = '#e3e3e3';

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

/** Node size grows with the square root of its degree, so hubs stand out without swamping. */
export function nodeSize(degree: number): number {
  return 3 + Math.min(12, Math.sqrt(degree) * 1.6);
}
