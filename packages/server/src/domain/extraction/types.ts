import type { CalendarDate } from './dates.js';
import { ENTRY_TYPES, MEMORY_TYPES, type EntryType, type MemoryType, type SnapshotType } from '../../model.js';

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
  /** The sentences that support the core: reasons, evidence, the answer to an objection. */
  proof?: string;
  /** The heading path of the Markdown section it came from ("Guide > Setup"). */
  source?: string;
  tags: string[];
  confidence: number;
  significance_score: number;
}

// The enumerations are the API's (model.ts): what the extractor proposes, the service stores.
export { ENTRY_TYPES, MEMORY_TYPES, type EntryType, type MemoryType };

/** A specific-knowledge entry for `POST /v1/specific-knowledge/ingest`. */
export interface ExtractedEntry {
  entry_type: EntryType;
  title: string;
  content: string;
  /** The heading path of the Markdown section it came from ("Guide > Setup"). */
  section?: string;
}

/** A memory for `POST /v1/ingest` with `extract_memories: true`. */
export interface ExtractedMemory {
  content: string;
  memory_type: MemoryType;
  tags: string[];
  /** Who said it: the turn's speaker, or the person the sentence opens with ("Tom prefers …"). */
  speaker?: string;
  /** When it happened, as the text dates it (its own date, else the text's `Date:` line or title). */
  occurred_on?: CalendarDate;
}
