import { AppError } from '../errors.js';
import type { Memory, MemoryType, Page, PageOf, Snapshot } from '../model.js';
import type { Bag } from '../memory-words.js';
import type { ParsedQuery } from './search-store.js';

/** Filters of memory lists and searches (design §12.3); `since`/`until` are UTC instants, inclusive. */
export interface MemoryFilters {
  memoryType?: MemoryType | undefined;
  speaker?: string | undefined;
  sessionId?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  /**
   * Only memories current at `asOf` (design §6.1): not replaced, or replaced by a memory that
   * occurred after it (any time when asOf is absent).
   */
  current?: { asOf?: string | undefined } | undefined;
}

export interface MemoryQuery extends Page, MemoryFilters {
  brainId: string;
  tag?: string | undefined;
}

export interface MemorySearch extends MemoryFilters {
  brainId: string;
  query: ParsedQuery;
  limit: number;
  /**
   * The caller reads the hits only (supersession's candidates): the matches are not counted and
   * `total` is 0. Counting walks every match again, once per arrival of a large ingest.
   */
  uncounted?: boolean | undefined;
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

/** The turns around a memory a word index keeps (a search's neighbours), with their keys in the index. */
export interface KeptTurns {
  turns: Memory[];
  keys: Map<string, number>;
}

/**
 * A brain's in-process word index (SQLite's, store/sqlite/memory-word-index/), up to date with
 * every writer's changes: for each stem (the words of memory-words.ts), the memories holding it,
 * so that memory search reads its candidates and every word's exact document frequency here.
 * Keys are the store's integer keys of memories.
 */
export interface MemoryWordIndex {
  /** Memories ever written to the brain (N of the IDF). */
  readonly size: number;
  /** For each word (stemmed here), in how many live memories it appears. */
  df(words: readonly string[]): number[];
  /** The same for stems. */
  dfOfStems(stems: readonly string[]): number[];
  /**
   * The `k` best live memories (of the type, when given) by BM25 with these parameters over the
   * stems with these weights, the brain's mean length; ties: the later key first.
   */
  best(
    weights: ReadonlyMap<string, number>,
    type: MemoryType | undefined,
    k: number,
    bm25: { k1: number; b: number },
  ): { keys: number[]; scores: number[] };
  /** A memory's bag of stems, by key, when the index holds it. */
  bagOfKey(key: number): Bag | undefined;
  /** The turns kept around a memory since the brain last changed. */
  keptTurns(id: string): KeptTurns | undefined;
  keepTurns(id: string, kept: KeptTurns): void;
  /** The memories of these keys that still exist, by key. */
  memories(keys: readonly number[]): Map<number, Memory>;
  /** The keys of these memories (by id) that still exist. */
  keysOf(ids: readonly string[]): Map<string, number>;
  /** How many memories of the search's brain (and type) match its query, as `search` counts them. */
  countMatches(search: Omit<MemorySearch, 'limit'>): number;
}

/** A brain's word index built in a worker or in slices (one built on a search is not told). */
export interface WordIndexBuilt {
  brain_id: string;
  memories: number;
  seconds: number;
  in_worker: boolean;
}

/** Memories (design §12) on both stores; every write is one transaction. */
export interface MemoryStore {
  /** Whether search's relevance weighs a word by how rare it is in the brain (memory ranking reads more matches when not). */
  readonly relevanceHasIdf: boolean;
  /** The brain's word index when the store keeps one (SQLite) and it is ready; undefined otherwise. */
  wordIndex?(brainId: string): MemoryWordIndex | undefined;
  /** Calls `listener` when a brain's word index is built in a worker or in slices (the app logs it). */
  onWordIndexBuilt?(listener: (event: WordIndexBuilt) => void): void;
  insert(accountId: string, memory: Memory): Promise<void>;
  get(accountId: string, id: string): Promise<Memory | undefined>;
  /** A brain's memories, newest first, with the total of all matches. */
  list(query: MemoryQuery): Promise<PageOf<Memory>>;
  /** Runs `change` on the memory inside the transaction and stores what it returns. */
  update(accountId: string, id: string, change: (current: Memory) => Memory): Promise<Memory | undefined>;
  /** Deletes the memory; those it replaced are then replaced by what replaced it (or by none). */
  delete(accountId: string, id: string): Promise<boolean>;
  /** The brain's memories replaced by any of `ids` (superseded_by one of them). */
  replaced(brainId: string, ids: readonly string[]): Promise<Memory[]>;
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
   * The lengths (characters of content) of the brain's newest up to `newest` memories: how many,
   * their mean and the mean of their squares (memory ranking's length normalisation reads how
   * much they vary).
   */
  contentLengths(brainId: string, newest: number): Promise<{ n: number; mean: number; meanSquare: number }>;
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
  /**
   * The snapshots made from a memory (source_type "memory", source_id its id) in its brain, oldest
   * first: an export imported into another brain keeps their source_id, and those copies are not
   * the memory's.
   */
  promotedSnapshots(accountId: string, memory: Pick<Memory, 'id' | 'brain_id'>): Promise<Snapshot[]>;
}

/** A promotion refused because the memory was promoted, changed or deleted since it was read. */
export class MemoryPromotionLost extends AppError {
  constructor() {
    super('CONFLICT', 'the memory changed while it was being promoted');
  }
}
