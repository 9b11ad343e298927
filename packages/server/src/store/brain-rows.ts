import type { Brain, BrainWithCounts } from '../model.js';

/** A brain as both stores select it: auto_link as the database's boolean, the counts flat. */
export interface BrainRow extends Omit<Brain, 'auto_link'> {
  auto_link: boolean | number;
  snapshot_count: number;
  edge_count: number;
  memory_count: number;
  pending_links: number;
  pending_embeddings: number;
}

export function brainFromRow(row: BrainRow): BrainWithCounts {
  return {
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    auto_link: row.auto_link === true || row.auto_link === 1,
    snapshot_count: Number(row.snapshot_count),
    edge_count: Number(row.edge_count),
    memory_count: Number(row.memory_count),
    pending_work: { auto_link: Number(row.pending_links), embeddings: Number(row.pending_embeddings) },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The SQL of brain `b`'s memory count, shared by both stores: counted on the memories' brain
 * index when read (brains are read far less often than memories are written).
 */
export const MEMORY_COUNT_COLUMN = `(SELECT count(*) FROM memories m WHERE m.brain_id = b.id) AS memory_count`;

/** The SQL of the pending-work counts of brain `b`, shared by both stores. */
export const PENDING_WORK_COLUMNS = `
  (SELECT count(*) FROM background_work w WHERE w.brain_id = b.id AND w.kind = 'auto_link') AS pending_links,
  (SELECT count(*) FROM background_work w WHERE w.brain_id = b.id AND w.kind = 'embed') AS pending_embeddings`;

/** The canonical pair of an edge for uniqueness and tombstones: related_to has no direction. */
export function canonicalPair(edge: { source_id: string; target_id: string; edge_type: string }): [string, string] {
  if (edge.edge_type === 'related_to' && edge.target_id < edge.source_id) return [edge.target_id, edge.source_id];
  return [edge.source_id, edge.target_id];
}
