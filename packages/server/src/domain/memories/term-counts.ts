import type { MemoryStore } from '../../store/memory-store.js';

/**
 * How long a brain's counted words are kept: ranking needs a word's document frequency to its
 * order of magnitude (SQLite's count is sampled), so counts a little old rank as well, and a
 * search then asks the store only for words it has not counted lately. Writes through this
 * process are counted (wroteTo): once they are more than WRITES_KEPT of the brain's size, its
 * counts are forgotten, so a small brain is counted afresh after any write and a large one keeps
 * its counts through a conversation's writes; another process's writes are seen after this long
 * at most.
 */
export const COUNTS_KEPT_MS = 30_000;
/** The share of a brain's size its counts may be behind by in writes through this process. */
const WRITES_KEPT = 0.01;
/** Bounds: words kept per brain, and brains kept; past either, the oldest counts are dropped. */
const WORDS_PER_BRAIN = 20_000;
const BRAINS = 1_000;

interface BrainCounts {
  size: number;
  /** Writes through this process since the counts were made. */
  writes: number;
  df: Map<string, number>;
  countedAt: number;
}

/** Per store, so that two apps in one process (tests) never share counts. */
const countsOf = new WeakMap<MemoryStore, Map<string, BrainCounts>>();

/**
 * The brain's size and each word's document frequency (store.termStats), from counts kept for
 * COUNTS_KEPT_MS; only the words not counted lately are read from the store.
 */
export async function termCounts(
  store: MemoryStore,
  brainId: string,
  words: readonly string[],
  cap: number,
  now = Date.now(),
): Promise<{ size: number; df: number[] }> {
  let brains = countsOf.get(store);
  if (!brains) countsOf.set(store, (brains = new Map()));
  const kept = brains.get(brainId);
  const fresh = kept && now - kept.countedAt <= COUNTS_KEPT_MS && kept.df.size < WORDS_PER_BRAIN ? kept : undefined;
  const wanted = [...new Set(words)];
  const missing = fresh ? wanted.filter((w) => !fresh.df.has(w)) : wanted;
  let counts = fresh;
  if (!counts || missing.length > 0) {
    const read = await store.termStats(brainId, missing, cap);
    counts ??= { size: read.size, writes: 0, df: new Map(), countedAt: now };
    counts.size = read.size;
    for (const [i, w] of missing.entries()) counts.df.set(w, read.df[i] ?? 0);
    brains.delete(brainId); // set again last: a Map's order is the order of use
    if (brains.size >= BRAINS) brains.delete(brains.keys().next().value as string);
    brains.set(brainId, counts);
  }
  const df = counts.df;
  return { size: counts.size, df: words.map((w) => df.get(w) ?? 0) };
}

/** A write through this process changed the brain: past WRITES_KEPT of it, its next search counts afresh. */
export function wroteTo(store: MemoryStore, brainId: string): void {
  const brains = countsOf.get(store);
  const counts = brains?.get(brainId);
  if (counts && ++counts.writes > counts.size * WRITES_KEPT) brains?.delete(brainId);
}

/** A write through this process changed a brain it does not name (a delete): every search counts afresh. */
export function forgetAllBrains(store: MemoryStore): void {
  countsOf.get(store)?.clear();
}
