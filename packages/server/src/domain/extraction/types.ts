import type { SnapshotType } from '../../model.js';

/** A snapshot proposed from free text: a valid body for `POST /v1/snapshots`. */
export interface ExtractedSnapshot {
  name: string;
  core: string;
  type: SnapshotType;
  one_liner: string;
  story?: string;
  method?: string;
  steps?: string;
  challenge?: string;
  tags: string[];
  confidence: number;
  significance_score: number;
}

export const ENTRY_TYPES = [
  'concept',
  'framework',
  'protocol',
  'principle',
  'technique',
  'quote',
  'case_study',
  'definition',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** A specific-knowledge entry for `POST /v1/specific-knowledge/ingest`. */
export interface ExtractedEntry {
  entry_type: EntryType;
  title: string;
  content: string;
}

export const MEMORY_TYPES = ['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** A memory for `POST /v1/ingest` with `extract_memories: true`. */
export interface ExtractedMemory {
  content: string;
  memory_type: MemoryType;
  tags: string[];
}
