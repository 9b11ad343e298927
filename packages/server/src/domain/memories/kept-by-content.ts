import type { Memory } from '../../model.js';

/**
 * What is read from a memory's content, kept by its id with the content it was read from (an
 * update changes the content, and the memory is read again). A brain's searches meet the same
 * memories again and again (a long memory takes about a millisecond to read for its values, a
 * tenth of that for its pronouns), so each is read once. At most `maxChars` characters of
 * content are kept; past it the least lately used go.
 */
export class KeptByContent<T> {
  private readonly kept = new Map<string, { content: string; value: T }>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(memory: Pick<Memory, 'id' | 'content'>, read: (content: string) => T): T {
    const known = this.kept.get(memory.id);
    if (known && known.content === memory.content) {
      // Least lately used first: a hit moves to the end.
      this.kept.delete(memory.id);
      this.kept.set(memory.id, known);
      return known.value;
    }
    const value = read(memory.content);
    this.keep(memory.id, { content: memory.content, value });
    return value;
  }

  private keep(id: string, entry: { content: string; value: T }): void {
    const before = this.kept.get(id);
    if (before) {
      this.kept.delete(id);
      this.chars -= before.content.length;
    }
    if (entry.content.length > this.maxChars) return;
    this.kept.set(id, entry);
    this.chars += entry.content.length;
    for (const [oldest, { content }] of this.kept) {
      if (this.chars <= this.maxChars) break;
      this.kept.delete(oldest);
      this.chars -= content.length;
    }
  }
}
