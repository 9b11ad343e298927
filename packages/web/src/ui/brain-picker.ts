import type { Brain, SnapgraphClient } from '@snapgraph/client';
import { h } from '../dom.js';

/**
 * The brain picker: each brain by name, told apart by its id's end when two share a name, the
 * key's default marked, and what it holds — snapshots and memories both (a brain of memories
 * alone is not empty). Its counts are read again after every change the page makes.
 */

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "12 snapshots, 3 memories": what a brain holds, as the picker says it. */
export function holds(brain: Pick<Brain, 'snapshot_count'> & { memory_count?: number }): string {
  const memories = brain.memory_count ?? 0;
  const snapshots = plural(brain.snapshot_count, 'snapshot', 'snapshots');
  return memories > 0 ? `${snapshots}, ${plural(memories, 'memory', 'memories')}` : snapshots;
}

/**
 * What the graph says when it has no node: a brain of memories alone is not empty — the graph
 * draws snapshots, and its memories are listed beside it.
 */
export function emptyGraphMessage(memoryCount: number): string {
  return memoryCount > 0
    ? `No snapshots yet: this brain holds ${plural(memoryCount, 'memory', 'memories')}, listed under “Memories”. ` +
        'Paste a text under “Crystallize text” to make snapshots from a text.'
    : 'This brain is empty. Paste a text under “Crystallize text” to turn it into snapshots, or add them through the API.';
}

export class BrainPicker {
  private brains: Brain[] = [];
  private home: string | undefined;

  constructor(private readonly select: HTMLSelectElement) {}

  /** The key's default brain first; returns the brain to open (the wanted one if the key has it). */
  fill(brains: Brain[], home: string | undefined, wanted: string): string {
    this.home = home;
    this.brains = [...brains].sort((a, b) => Number(b.id === home) - Number(a.id === home));
    this.render();
    const brainId = this.brains.some((b) => b.id === wanted) ? wanted : (home ?? this.brains[0]?.id ?? '');
    this.select.value = brainId;
    return brainId;
  }

  brain(id: string): Brain | undefined {
    return this.brains.find((b) => b.id === id);
  }

  /** Reads one brain's counts again and shows them. */
  async refresh(client: SnapgraphClient, id: string): Promise<Brain | undefined> {
    if (!id) return undefined;
    const fresh = await client.brains.get(id);
    this.brains = this.brains.map((b) => (b.id === id ? fresh : b));
    const value = this.select.value;
    this.render();
    this.select.value = value;
    return fresh;
  }

  private render(): void {
    const named = new Map<string, number>();
    for (const brain of this.brains) named.set(brain.name, (named.get(brain.name) ?? 0) + 1);
    this.select.replaceChildren(
      ...this.brains.map((brain) =>
        h(
          'option',
          { value: brain.id },
          `${brain.name}${named.get(brain.name)! > 1 ? ` (…${brain.id.slice(-6)})` : ''}` +
            `${brain.id === this.home && !/default/i.test(brain.name) ? ' (default)' : ''} · ${holds(brain)}`,
        ),
      ),
    );
  }
}
