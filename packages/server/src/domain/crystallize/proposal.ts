import { SNAPSHOT_TYPES, type ProposedSnapshot, type SnapshotType } from '../../model.js';
import { SNAPSHOT_LIMITS } from '../snapshots/index.js';

/** The narrative fields an extractor may fill (the rest stay null). */
export const PROPOSED_TEXT_FIELDS = ['one_liner', 'story', 'method', 'steps', 'challenge', 'proof'] as const;

/** What an extractor (the built-in one or an LLM) proposes, before it is made valid. */
export interface RawProposal {
  name?: unknown;
  core?: unknown;
  type?: unknown;
  tags?: unknown;
  confidence?: unknown;
  significance_score?: unknown;
  one_liner?: unknown;
  story?: unknown;
  method?: unknown;
  steps?: unknown;
  challenge?: unknown;
  proof?: unknown;
  /** The heading path of the Markdown section it came from (the built-in extractor's). */
  source?: unknown;
}

/**
 * A proposal made into valid snapshot fields, or undefined when it has no name or core. An
 * extractor's text is shortened at a word boundary to the field's limit rather than refused:
 * the text came from the user, and a long insight is still an insight.
 */
export function cleanProposal(raw: RawProposal): ProposedSnapshot | undefined {
  const core = clip(raw.core, SNAPSHOT_LIMITS.core);
  const name = clip(raw.name, SNAPSHOT_LIMITS.name) ?? (core === undefined ? undefined : clip(core, 80));
  if (name === undefined || core === undefined) return undefined;
  const proposal: ProposedSnapshot = {
    name,
    core,
    type: SNAPSHOT_TYPES.includes(raw.type as SnapshotType) ? (raw.type as SnapshotType) : 'Belief',
    confidence: unit(raw.confidence, 0.5),
    significance_score: unit(raw.significance_score, 0.5),
    tags: cleanTags(raw.tags),
  };
  for (const field of PROPOSED_TEXT_FIELDS) {
    const limit = field === 'one_liner' ? SNAPSHOT_LIMITS.one_liner : SNAPSHOT_LIMITS.text;
    proposal[field] = clip(raw[field], limit) ?? null;
  }
  const source = clip(raw.source, SNAPSHOT_LIMITS.text);
  if (source !== undefined) proposal.source = source;
  return proposal;
}

/** Trimmed text of at most `max` characters, cut at the last space before the limit; undefined when empty. */
export function clip(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function unit(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;
}

function cleanTags(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const tags = new Set<string>();
  for (const tag of value) {
    const text = clip(tag, SNAPSHOT_LIMITS.tag);
    if (text !== undefined && !text.endsWith('…')) tags.add(text.toLowerCase());
    if (tags.size === SNAPSHOT_LIMITS.tags) break;
  }
  return [...tags];
}
