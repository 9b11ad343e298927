import type { Memory, MemoryType } from '../../../model.js';
import type { MemorySearch } from '../../memory-store.js';

/** A memory's indexed text, by the store's integer key for it (`key`). */
export interface IndexedMemoryText {
  key: number;
  memory_type: MemoryType;
  content: string;
  speaker: string | null;
  tags: string[];
}

/**
 * What the word index of memories (this folder) reads: a log of the
 * keys whose text changed through any writer, numbered in order (`seq`), and the texts. Every
 * read is synchronous (the store's driver is). Keys are numbers unique in the store; a brain's
 * keys, in write order, are read in slices to build its index.
 */
export interface MemoryTextFeed {
  /** The newest change's seq (0 for none), and the oldest the log still holds. */
  changeMarks(): { latest: number; oldest: number };
  /** The keys changed after seq `after`, up to `upTo`, each once. */
  changedKeys(after: number, upTo: number): number[];
  /** The brain's memories with keys above `after`, in key order, at most `limit`. */
  brainTexts(brainId: string, after: number, limit: number): IndexedMemoryText[];
  /** The key range of the brain's memories, and how many were ever written to it; undefined while it has none. */
  brainKeys(brainId: string): { lo: number; hi: number; written: number } | undefined;
  /**
   * For a build in a worker thread with a connection of its own: the database file, the query of
   * the log's newest seq, and the query of the texts of keys @lo to @hi in key order. Undefined
   * for a database in memory.
   */
  readonly workerReads?: { path: string; seq: string; texts: string } | undefined;
  /** The texts of these keys that still exist. */
  texts(keys: readonly number[]): IndexedMemoryText[];
  /** The keys of these memories (by id) that still exist. */
  keysOf(ids: readonly string[]): Map<string, number>;
  /** The memories of these keys that still exist, by key. */
  memories(keys: readonly number[]): Map<number, Memory>;
  /** How many memories of the search's brain (and type) match its query, as `search` counts them. */
  countMatches(search: Omit<MemorySearch, 'limit'>): number;
}
