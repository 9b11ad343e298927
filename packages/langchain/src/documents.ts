import { Document } from '@langchain/core/documents';
import type { MemorySearchResult, SearchResult } from '@snapgraph/client';

/** What every Snapgraph document's metadata holds, whichever it came from. */
export interface SnapgraphDocumentMetadata {
  [key: string]: unknown;
  /** The snapshot's (`snap_…`) or memory's (`mem_…`) id. */
  id: string;
  /** Relevance, 0 to 1, higher is better (design §8). */
  score: number;
  /** `snapshot` or `memory`: which resource the document is. */
  source: 'snapshot' | 'memory';
  /** The snapshot's type (`Principle`, `Belief`…) or the memory's `memory_type` (`fact`, `decision`…). */
  type: string;
  brain_id: string;
}

/** A snapshot search result as a Document: its name, a blank line, its core statement. */
export function snapshotDocument(result: SearchResult): Document<SnapgraphDocumentMetadata> {
  return new Document({
    id: result.id,
    pageContent: `${result.name}\n\n${result.core}`,
    metadata: {
      id: result.id,
      score: result.score,
      source: 'snapshot',
      type: result.type,
      brain_id: result.brain_id,
      name: result.name,
      tags: result.tags,
      ...(result.one_liner !== null ? { one_liner: result.one_liner } : {}),
    },
  });
}

/**
 * A memory search result as a Document: its content as it was said. Who said it, when, in which
 * conversation and what replaced it (design §12, §23) are in the metadata only when the memory
 * has them, so a filter on `metadata.speaker` never meets a null.
 */
export function memoryDocument(result: MemorySearchResult): Document<SnapgraphDocumentMetadata> {
  // superseded_by arrives with the service's "facts that change" round; older services omit it.
  const supersededBy = (result as { superseded_by?: string | null }).superseded_by;
  return new Document({
    id: result.id,
    pageContent: result.content,
    metadata: {
      id: result.id,
      score: result.score,
      source: 'memory',
      type: result.memory_type,
      brain_id: result.brain_id,
      occurred_at: result.occurred_at,
      tags: result.tags,
      ...(result.speaker !== null ? { speaker: result.speaker } : {}),
      ...(result.session_id !== null ? { session_id: result.session_id } : {}),
      ...(supersededBy ? { superseded_by: supersededBy } : {}),
      ...(result.promoted_to !== null ? { promoted_to: result.promoted_to } : {}),
    },
  });
}
