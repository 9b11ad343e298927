import { AppError } from '../errors.js';
import type { Memory, MemoryType, Page, PageOf, Snapshot } from '../model.js';
import type { ParsedQuery } from './search-store.js';

/** Filters of memory lists and searches (design §12.3); `since`/`until` are UTC instants, inclusive. */
export interface MemoryFilters {
  memoryType?: MemoryType | undefined;
  speaker?: string | undefined;
  sessionId?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

export interface MemoryQuery extends Page, MemoryFilters {
  brainId: string;
  tag?: string | undefined;
}

export interface MemorySearch extends MemoryFilters {
  brainId: string;
  query: ParsedQuery;
  limit: number;
}

/**
 * A memory promoted into snapshots, written with them (KnowledgeWrite.promotion): the memory
 * must still be unpromoted and unchanged since it was read (`updated_at`), or nothing is written
 * (MemoryPromotionLost) and the caller looks again.
 */
export interface MemoryPromotion {
  memoryId: string;
  snapshotId: string;
  /** The memory's updated_at when it was read. */
  readAt: string;
  /** Its new updated_at. */
  at: string;
}

/** Memories (design §12) on both stores; every write is one transaction. */
export interface MemoryStore {
  /** Whether search's relevance weighs a word by how rare it is in the brain (memory ranking reads more matches when not). */
  readonly relevanceHasIdf: boolean;
  insert(accountId: string, memory: Memory): Promise<void>;
  get(accountId: string, id: string): Promise<Memory | undefined>;
  /** A brain's memories, newest first, with the total of all matches. */
  list(query: MemoryQuery): Promise<PageOf<Memory>>;
  /** Runs `change` on the memory inside the transaction and stores what it returns. */
  update(accountId: string, id: string, change: (current: Memory) => Memory): Promise<Memory | undefined>;
  delete(accountId: string, id: string): Promise<boolean>;
  /** Memories matching the query, most relevant first (relevance on the store's own scale), and how many match. */
  search(search: MemorySearch): Promise<{ hits: { memory: Memory; relevance: number }[]; total: number }>;
  /**
   * The memories of `ids` in the search's brain (and of its type), each with whether it matches
   * the query's words: those that memory search brings in by meaning (design §12.3).
   */
  among(search: Omit<MemorySearch, 'limit'>, ids: string[]): Promise<{ memory: Memory; matchesText: boolean }[]>;
  /**
   * What ranking weighs words by (domain/memories/ranking.ts): about how many memories the brain
   * holds, and for each of `terms` (stemmed by the store, as its index is) in how many of them it
   * appears in content, speaker or tags — counted up to `cap`, so a common word costs little.
   */
  termStats(brainId: string, terms: readonly string[], cap: number): Promise<{ size: number; df: number[] }>;
  /**
   * For each of `anchors` that has a session: the up to `n` memories of its brain and session
   * just before it and the up to `n` just after it by (occurred_at, id), oldest first, keyed by
   * the anchor's id.
   */
  sessionContext(brainId: string, anchors: readonly Memory[], n: number): Promise<Map<string, Memory[]>>;
  /**
   * For each of `anchors` without a session: the up to `n` memories of its brain just before it
   * and the up to `n` just after it by (occurred_at, id), in any session or none, oldest first,
   * keyed by the anchor's id (memory ranking reads a conversation's turns from it when they were
   * written without a session; domain/memories/neighbours.ts).
   */
  nearestInTime(brainId: string, anchors: readonly Memory[], n: number): Promise<Map<string, Memory[]>>;
  /** The snapshots made from a memory (source_type "memory", source_id its id), oldest first. */
  promotedSnapshots(accountId: string, memoryId: string): Promise<Snapshot[]>;
}

/** A promotion refused because the memory was promoted, changed or deleted since it was read. */
export class MemoryPromotionLost extends AppError {
  constructor() {
    super('CONFLICT', 'the memory changed while it was being promoted');
  }
}
