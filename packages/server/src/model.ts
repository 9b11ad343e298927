/**
 * The records Snapgraph stores and returns. Field names are the wire names of the API, so a
 * stored row, a domain object and a response body are the same shape.
 */

export const SNAPSHOT_TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'] as const;
export type SnapshotType = (typeof SNAPSHOT_TYPES)[number];

export const EDGE_TYPES = ['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** Who made an edge: the user (through POST /v1/edges, or by editing an auto edge) or the service. */
export const EDGE_ORIGINS = ['manual', 'auto'] as const;
export type EdgeOrigin = (typeof EDGE_ORIGINS)[number];

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Optional free-text fields of a snapshot: null until set. */
export const SNAPSHOT_TEXT_FIELDS = [
  'one_liner',
  'story',
  'moment',
  'source',
  'trigger_pattern',
  'method',
  'steps',
  'filter',
  'challenge',
  'break_test',
  'risks',
  'proof',
] as const;
export type SnapshotTextField = (typeof SNAPSHOT_TEXT_FIELDS)[number];

export type EmotionObject = object;

export interface Snapshot extends Record<SnapshotTextField, string | null> {
  id: string;
  brain_id: string;
  name: string;
  core: string;
  type: SnapshotType;
  emotion: EmotionObject | null;
  confidence: number;
  significance_score: number;
  tags: string[];
  source_type: string;
  source_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface Edge {
  id: string;
  brain_id: string;
  source_id: string;
  target_id: string;
  edge_type: EdgeType;
  strength: number;
  label: string | null;
  origin: EdgeOrigin;
  created_at: string;
  updated_at: string;
}

export interface Brain {
  id: string;
  account_id: string;
  name: string;
  /** Whether the service links this brain's snapshots by itself (design §9). */
  auto_link: boolean;
  created_at: string;
  updated_at: string;
}

export interface BrainWithCounts extends Brain {
  snapshot_count: number;
  edge_count: number;
  /** Memories are part of a brain as its snapshots are (design §2.3): a brain of memories alone is not empty. */
  memory_count: number;
  /** Background tasks queued for the brain: what a client waits on after a bulk load. */
  pending_work: { auto_link: number; embeddings: number };
}

export interface Account {
  id: string;
  created_at: string;
}

/** An API key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  id: string;
  account_id: string;
  brain_id: string;
  key_hash: string;
  prefix: string;
  plan: Plan;
  /** Enterprise only: custom per-minute and per-second limits. */
  rpm: number | null;
  burst: number | null;
  created_at: string;
  revoked_at: string | null;
}

/** Who is calling: what authentication resolves a key to. */
export interface Principal {
  keyId: string;
  accountId: string;
  defaultBrainId: string;
  plan: Plan;
  rpm: number | null;
  burst: number | null;
}

/** Where an item sits in the newest-first order of every list. */
export interface Position {
  created_at: string;
  id: string;
}

/** An item as the API's JSON text, with its position for cursors. */
export interface JsonRow extends Position {
  json: string;
}

export interface Page {
  limit: number;
  offset: number;
  /** Keyset pagination: only items strictly after this position (offset is then 0). */
  after?: Position | undefined;
}

export interface PageOf<T> {
  rows: T[];
  total: number;
}

/** A page as the API returns it: the rows, the count of all matches, the next page's cursor. */
export interface ListPage<T> extends PageOf<T> {
  nextCursor: string | null;
}

/** What a crystallize run cost (design §11); token counts are 0 for the built-in extractor. */
export interface RunUsage {
  totalTokensIn: number;
  totalTokensOut: number;
  /** The LLM's model name, or "builtin" when the built-in extractor did the work. */
  model: string;
  phases: Record<'extract' | 'synthesize' | 'crystallize', { tokensIn: number; tokensOut: number }>;
  embeddingTokens: number;
  totalTokens: number;
}

export interface RunMeta {
  rawInsightCount: number;
  refinedCount: number;
  finalCount: number;
  durationMs: number;
  /** Automatic edges the run made (absent on runs stored before it was counted). */
  edgeCount?: number;
  /** When the run made no edge, why. */
  noEdgeReason?: string;
}

/** A crystallize run as stored: `GET /v1/crystallize/:run_id`. */
export interface CrystallizeRun {
  id: string;
  brain_id: string;
  /** `succeeded` (its snapshots were made) or `review` (its captures wait for a decision). */
  status: 'succeeded' | 'review';
  source_type: string;
  agent_id: string | null;
  session_id: string | null;
  snapshot_ids: string[];
  capture_ids: string[];
  usage: RunUsage;
  meta: RunMeta;
  created_at: string;
}

/** The fields a snapshot would be created with; what a capture holds until accepted. */
export type ProposedSnapshot = Pick<Snapshot, 'name' | 'core' | 'type' | 'confidence' | 'significance_score' | 'tags'> &
  Partial<Record<SnapshotTextField, string | null>>;

/** A snapshot proposed by a `review: true` run, pending until accepted or rejected. */
export interface Capture {
  id: string;
  run_id: string;
  brain_id: string;
  snapshot: ProposedSnapshot;
  created_at: string;
}

export const KNOWLEDGE_SOURCE_TYPES = [
  'youtube',
  'book',
  'document',
  'article',
  'course',
  'podcast',
  'manual',
] as const;
export type KnowledgeSourceType = (typeof KNOWLEDGE_SOURCE_TYPES)[number];

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

/** A book, a video, a document… ingested as knowledge (design §13). */
export interface KnowledgeSource {
  id: string;
  brain_id: string;
  source_type: KnowledgeSourceType;
  title: string;
  author: string | null;
  url: string | null;
  domain: string | null;
  tags: string[];
  entries_count: number;
  snapshot_ids: string[];
  created_at: string;
  updated_at: string;
}

/** One piece of a source's knowledge: a concept, a framework, a quote… */
export interface KnowledgeEntry {
  id: string;
  brain_id: string;
  source_id: string;
  entry_type: EntryType;
  title: string;
  content: string;
  domain: string | null;
  /** How well the holder knows it, 0–1; starts at 0. */
  mastery: number;
  created_at: string;
  updated_at: string;
}

export const MEMORY_TYPES = ['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** A lightweight record an agent keeps (design §12.3): searchable, and promotable into snapshots. */
export interface Memory {
  id: string;
  brain_id: string;
  content: string;
  memory_type: MemoryType;
  speaker: string | null;
  tags: string[];
  source_emotion: string | null;
  /** −1 (negative) to 1 (positive). */
  emotional_valence: number | null;
  /** 0 to 1. */
  emotional_intensity: number | null;
  /** When the remembered thing happened (UTC, milliseconds); created_at unless given. */
  occurred_at: string;
  /** The conversation, meeting or episode it belongs to, or null. */
  session_id: string | null;
  /** The first snapshot the memory was promoted into, or null. */
  promoted_to: string | null;
  /** The memory of the same brain that replaced this one (design §6.1), or null while it is current. */
  superseded_by: string | null;
  /** That memory's occurred_at, or null. */
  superseded_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The states of a long request run as a job (design §14). */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** How the text of `POST /v1/ingest` was captured; the service never fetches a url. */
export const INGEST_SOURCE_TYPES = ['manual', 'document', 'article', 'url'] as const;
export type IngestSourceType = (typeof INGEST_SOURCE_TYPES)[number];
