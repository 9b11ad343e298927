/**
 * The records Snapgraph stores and returns. Field names are the wire names of the API, so a
 * stored row, a domain object and a response body are the same shape. The four resources with
 * most fields (snapshot, edge, brain, memory) are declared field by field in fields/, once; their
 * types here are read from those declarations.
 */
import type { Brain } from './fields/brain.js';
import type { Snapshot, SnapshotTextField } from './fields/snapshot.js';

export { SNAPSHOT_FIELDS, SNAPSHOT_TEXT_FIELDS, SNAPSHOT_TYPES } from './fields/snapshot.js';
export type { EmotionObject, Snapshot, SnapshotTextField, SnapshotType } from './fields/snapshot.js';
export { EDGE_FIELDS, EDGE_ORIGINS, EDGE_TYPES } from './fields/edge.js';
export type { Edge, EdgeOrigin, EdgeType } from './fields/edge.js';
export { BRAIN_FIELDS } from './fields/brain.js';
export type { Brain } from './fields/brain.js';
export { MEMORY_FIELDS, MEMORY_TYPES } from './fields/memory.js';
export type { Memory, MemoryType } from './fields/memory.js';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

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

/** The states of a long request run as a job (design §14). */
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** How the text of `POST /v1/ingest` was captured; the service never fetches a url. */
export const INGEST_SOURCE_TYPES = ['manual', 'document', 'article', 'url'] as const;
export type IngestSourceType = (typeof INGEST_SOURCE_TYPES)[number];
