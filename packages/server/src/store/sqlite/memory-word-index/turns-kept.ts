import type { KeptTurns } from '../../memory-store.js';

export type { KeptTurns };

/**
 * The turns read around memories lately, by brain: a search reads those around its 8 best
 * matches, and they stay the same until the brain changes, which every search learns from the
 * change log first (catchUp): any change to a brain forgets its turns. At most TURNS_KEPT
 * memories' turns across brains (past it, all are forgotten). The same keeping holds the match
 * counts of queries (`Value` a number, keyed by query), which hold as long.
 */
const TURNS_KEPT = 10_000;
// `Brain` is the brain's index (BrainWords): a type parameter, so that this module need not import
// brain-words.ts, which imports it.
export class TurnsKept<Brain extends object, Value = KeptTurns> {
  private readonly byBrain = new Map<Brain, Map<string, Value>>();
  private count = 0;

  get(words: Brain, id: string): Value | undefined {
    return this.byBrain.get(words)?.get(id);
  }

  set(words: Brain, id: string, kept: Value): void {
    if (this.count >= TURNS_KEPT) {
      this.byBrain.clear();
      this.count = 0;
    }
    let brain = this.byBrain.get(words);
    if (!brain) this.byBrain.set(words, (brain = new Map()));
    if (!brain.has(id)) this.count++;
    brain.set(id, kept);
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
