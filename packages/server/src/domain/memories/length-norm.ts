import type { MemoryStore } from '../../store/memory-store.js';
import { COUNTS_KEPT_MS } from './term-counts.js';

/** The newest memories whose lengths say how much a brain's lengths vary (a bounded read). */
const LENGTHS_READ = 1_000;
/** Brains whose figure is kept; past it, the oldest is dropped. */
const BRAINS = 1_000;

/**
 * BM25's length normalisation `b` for a brain, from how much its memories' lengths vary: the
 * squared coefficient of variation of their content lengths, at most 1. Length normalisation
 * corrects for verbosity: where memories are alike in length (turns of a chat between two
 * people, CV about 0.5, b about 0.25) a longer one is longer because it says more, and
 * normalising its words away only adds noise; where short statements sit beside answers ten
 * times as long (a user's chats with an assistant, CV about 1), a long answer that names the
 * query's words in passing must not outrank the short statement of the fact, and b is 1.
 */
export function lengthNormalisation(lengths: { n: number; mean: number; meanSquare: number }): number {
  if (lengths.n < 2 || lengths.mean <= 0) return MIN_B;
  const cv2 = Math.max(0, lengths.meanSquare - lengths.mean ** 2) / lengths.mean ** 2;
  return Math.min(1, Math.max(MIN_B, cv2));
}

/** A brain of memories all of one length still weighs length a little (as BM25 with any b > 0). */
const MIN_B = 0.1;

/** Per store, so that two apps in one process (tests) never share figures. */
const keptOf = new WeakMap<MemoryStore, Map<string, BrainLengths & { at: number; n: number; writes: number }>>();

/** A brain's length normalisation `b` and the mean content length (characters) it was read with. */
export interface BrainLengths {
  b: number;
  meanChars: number;
}

/**
 * The brain's `b` (lengthNormalisation) and mean length, read from the store at most once per COUNTS_KEPT_MS and
 * read again once this process's writes to it pass 1% of what was read (as term-counts.ts).
 */
export async function brainLengths(store: MemoryStore, brainId: string, now = Date.now()): Promise<BrainLengths> {
  let brains = keptOf.get(store);
  if (!brains) keptOf.set(store, (brains = new Map()));
  const kept = brains.get(brainId);
  if (kept && now - kept.at <= COUNTS_KEPT_MS) return kept;
  const lengths = await store.contentLengths(brainId, LENGTHS_READ);
  const b = lengthNormalisation(lengths);
  brains.delete(brainId);
  if (brains.size >= BRAINS) brains.delete(brains.keys().next().value as string);
  const read = { b, meanChars: Math.max(1, lengths.mean), at: now, n: lengths.n, writes: 0 };
  brains.set(brainId, read);
  return read;
}

/** A write through this process changed the brain: past 1% of the lengths read, they are read again. */
export function lengthsWrittenTo(store: MemoryStore, brainId: string): void {
  const brains = keptOf.get(store);
  const kept = brains?.get(brainId);
  if (kept && ++kept.writes > kept.n * 0.01) brains?.delete(brainId);
}

/** A write through this process changed a brain it does not name (a delete). */
export function forgetAllLengths(store: MemoryStore): void {
  keptOf.get(store)?.clear();
}
