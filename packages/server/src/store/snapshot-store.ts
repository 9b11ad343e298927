import type { JsonRow, Page, PageOf, Snapshot, SnapshotType } from '../model.js';

export interface SnapshotQuery extends Page {
  brainId: string;
  type?: SnapshotType | undefined;
  /** Only snapshots carrying exactly this tag. */
  tag?: string | undefined;
}

/** Snapshots, read as rows or as the API's JSON text. */
export interface SnapshotStore {
  insert(accountId: string, snapshot: Snapshot): Promise<void>;
  get(accountId: string, id: string): Promise<Snapshot | undefined>;
  /**
   * The same snapshot as the API's JSON text, built by the database: the GET-one hot path
   * (answered synchronously through StoreCapabilities.immediateReads where the store can).
   */
  getJson(accountId: string, id: string): Promise<string | undefined>;
  /** A page of snapshots as JSON text (built by the database) and the total of all matches. */
  list(query: SnapshotQuery): Promise<PageOf<JsonRow>>;
  update(accountId: string, id: string, change: (current: Snapshot) => Snapshot): Promise<Snapshot | undefined>;
  /**
   * Deletes the snapshot and every edge attached to it, atomically. A memory promoted into it
   * (its `promoted_to`) names the next snapshot of that promotion instead, or null when none is
   * left, in the same transaction, its `updated_at` moved to `at` (design §12.4).
   */
  delete(accountId: string, id: string, at: string): Promise<boolean>;
}
