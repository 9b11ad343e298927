import type { Edge, EdgeType, JsonRow, Page, PageOf } from '../model.js';

export type EdgeScope = { snapshotId: string } | { brainId: string };

export interface EdgeQuery extends Page {
  accountId: string;
  scope: EdgeScope;
  edgeType?: EdgeType | undefined;
  minStrength: number;
}

export const EDGE_CONFLICT = 'an edge of this edge_type already exists between these snapshots';

/** Edges between snapshots, and the tombstones of deleted ones. */
export interface EdgeStore {
  insert(accountId: string, edge: Edge): Promise<void>;
  get(accountId: string, id: string): Promise<Edge | undefined>;
  /**
   * A page of edges as JSON text (built by the database) and the total of all matches, or
   * undefined when the scope's brain or snapshot is not the account's.
   */
  list(query: EdgeQuery): Promise<PageOf<JsonRow> | undefined>;
  update(accountId: string, id: string, change: (current: Edge) => Edge): Promise<Edge | undefined>;
  /** Deletes the edge and records its tombstone (design §9.4), atomically. */
  delete(accountId: string, id: string, at: string): Promise<boolean>;
}
