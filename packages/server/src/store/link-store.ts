import type { Edge, EdgeType } from '../model.js';

/** What the linker must not touch around a snapshot. */
export interface LinkNeighbourhood {
  /** Snapshots already joined to it by an edge of any type, origin or direction. */
  linked: string[];
  /** (other snapshot, type) pairs whose edge the user deleted: never made again. */
  tombstoned: { other_id: string; edge_type: EdgeType }[];
}

/** The writes and reads of automatic linking (design §9). */
export interface LinkStore {
  neighbourhood(snapshotId: string): Promise<LinkNeighbourhood>;
  /**
   * Inserts automatic edges, each only if no edge joins its two snapshots yet and its (pair,
   * type) has no tombstone — checked in the inserting transaction, so a concurrent user edit
   * wins. Returns the edges inserted.
   */
  insertAutoEdges(accountId: string, edges: Edge[]): Promise<Edge[]>;
  /**
   * Queues the snapshots for the background linker, `delayMs` from now (a run's snapshots
   * beyond what it links itself, queued before its write commits); any already queued stay as
   * they are.
   */
  queueLinking(brainId: string, snapshotIds: string[], delayMs: number): Promise<void>;
}

export type WorkKind = 'auto_link' | 'embed';

/** A background task, claimed with a lease (the work-queue-sql.ts of each store). */
export interface WorkTask {
  id: number;
  kind: WorkKind;
  subject_id: string;
  brain_id: string;
  version: number;
  attempts: number;
}

/** The durable queue of background work, on both stores. */
export interface WorkQueue {
  /** Up to `limit` due tasks of these kinds, leased for `leaseMs` to this caller. */
  claim(kinds: WorkKind[], limit: number, leaseMs: number): Promise<WorkTask[]>;
  /** Done: removed, unless the snapshot was written again meanwhile (then it stays queued). */
  finish(task: WorkTask): Promise<void>;
  /** Failed: tried again after `delayMs`, with the error kept for operators. */
  retry(task: WorkTask, error: string, delayMs: number): Promise<void>;
  /** How many tasks of a kind are queued, for metrics and readiness. */
  pending(kind: WorkKind): Promise<number>;
  /** A flag the queue's triggers read ('embeddings' while a provider is configured). */
  setFlag(name: string, on: boolean): Promise<void>;
}
