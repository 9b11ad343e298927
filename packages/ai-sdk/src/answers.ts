import type {
  CrystallizeResult,
  Memory,
  MemorySearchResult,
  SearchResult,
  KnowledgeSearchResult,
} from '@snapgraph/client';

/** The most characters of one text an answer carries: a model's context is the scarce thing. */
export const TEXT_MAX = 1_000;

export function cut(text: string): string {
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}

/** What `remember` answers: the new memory's id and how it was filed (the content the model just sent is left out). */
export function keptMemory(memory: Memory) {
  return {
    id: memory.id,
    memory_type: memory.memory_type,
    speaker: memory.speaker,
    session_id: memory.session_id,
    occurred_at: memory.occurred_at,
  };
}

export function recalledMemory(memory: MemorySearchResult) {
  return {
    id: memory.id,
    content: cut(memory.content),
    speaker: memory.speaker,
    occurred_at: memory.occurred_at,
    session_id: memory.session_id,
    score: memory.score,
    // Arrives with the service's "facts that change" round; null until then and when current.
    superseded_by: (memory as { superseded_by?: string | null }).superseded_by ?? null,
  };
}

export function foundSnapshot(snapshot: SearchResult) {
  return { id: snapshot.id, name: snapshot.name, type: snapshot.type, core: cut(snapshot.core), score: snapshot.score };
}

export function foundEntry(entry: KnowledgeSearchResult) {
  return {
    id: entry.id,
    source_id: entry.source_id,
    entry_type: entry.entry_type,
    title: entry.title,
    content: cut(entry.content),
    score: entry.score,
  };
}

export function crystallized(result: CrystallizeResult) {
  return {
    run_id: result.run_id,
    count: result.data.count,
    snapshots: result.data.snapshots.map((s) => ({
      id: s.id,
      name: s.name,
      type: s.type,
      one_liner: s.one_liner ?? cut(s.core),
    })),
    edges_made: result.data.edges.length,
  };
}
