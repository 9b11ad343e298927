import type { Memory } from '../../../model.js';

/**
 * The memories read by key lately (each search's 30 candidates, memory-search.ts's `atKeys`), by
 * brain: a brain's searches meet the same memories again, and reading a row and making its object
 * cost ~11 µs of CPU (~0.35 ms of a search's ~2 ms at 100,000 memories). A row stays until its
 * brain next changes, as the turns kept do (turns-kept.ts): every update of a memory is in the
 * change log (migration 16), and any change forgets the brain's rows. At most ROWS_KEPT across
 * brains (~1 KB each), the least lately used going first. Kept objects are shared between
 * searches: nothing writes to them.
 */
const ROWS_KEPT = 20_000;

// `Brain` is the brain's index (BrainWords), as in turns-kept.ts.
export class RowsKept<Brain extends object> {
  /** Each brain's rows by key, least lately used first. */
  private readonly byBrain = new Map<Brain, Map<number, Memory>>();
  private count = 0;

  /** The memories of these keys that still exist: those kept, and `read` of the rest (then kept). */
  read(words: Brain, keys: readonly number[], read: (keys: number[]) => Map<number, Memory>): Map<number, Memory> {
    let brain = this.byBrain.get(words);
    if (!brain) this.byBrain.set(words, (brain = new Map()));
    const found = new Map<number, Memory>();
    const missing: number[] = [];
    for (const key of keys) {
      const memory = brain.get(key);
      if (memory === undefined) missing.push(key);
      else {
        // Least lately used first: a hit moves to the end.
        brain.delete(key);
        brain.set(key, memory);
        found.set(key, memory);
      }
    }
    if (missing.length === 0) return found;
    for (const [key, memory] of read(missing)) {
      found.set(key, memory);
      if (!brain.has(key)) this.count++;
      brain.set(key, memory);
    }
    this.trim(brain);
    return found;
  }

  /** Past ROWS_KEPT, other brains' rows go first (all of them), then this brain's oldest. */
  private trim(brain: Map<number, Memory>): void {
    if (this.count <= ROWS_KEPT) return;
    for (const [other, rows] of this.byBrain) {
      if (rows === brain) continue;
      this.count -= rows.size;
      this.byBrain.delete(other);
      if (this.count <= ROWS_KEPT) return;
    }
    for (const key of brain.keys()) {
      if (this.count <= ROWS_KEPT) return;
      brain.delete(key);
      this.count--;
    }
  }

  forget(words: Brain): void {
    this.count -= this.byBrain.get(words)?.size ?? 0;
    this.byBrain.delete(words);
  }

  clear(): void {
    this.byBrain.clear();
    this.count = 0;
  }
}
