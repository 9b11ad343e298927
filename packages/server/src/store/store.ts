import type {
  Account,
  ApiKeyRecord,
  Brain,
  BrainWithCounts,
  Edge,
  EdgeType,
  JsonRow,
  Page,
  PageOf,
  Snapshot,
  SnapshotType,
} from '../model.js';
import type { MaybePromise } from '../maybe.js';
import type { KnowledgeStore } from './knowledge-store.js';
import type { MemoryStore } from './memory-store.js';
import type { SearchStore } from './search-store.js';
import type { LinkStore, WorkQueue } from './link-store.js';
import type { VectorStore } from './vector-store.js';
import type { IdempotencyStore, JobStore } from './job-store.js';
import type { TransferStore } from './transfer-store.js';

export interface SnapshotQuery extends Page {
  brainId: string;
  type?: SnapshotType | undefined;
}

export type EdgeScope = { snapshotId: string } | { brainId: string };

export interface EdgeQuery extends Page {
  accountId: string;
  scope: EdgeScope;
  edgeType?: EdgeType | undefined;
  minStrength: number;
}

/** What to create along with a key: a fresh account and brain, or neither. */
export interface KeyProvisioning {
  account?: Account;
  brain?: Brain;
  key: ApiKeyRecord;
}

/**
 * Everything Snapgraph keeps, behind one interface that the SQLite and PostgreSQL
 * implementations both satisfy. Every method is one transaction. Reads of tenant data take
 * the caller's account id, so another account's rows are simply not found.
 *
 * Failures come out as AppError: a duplicate edge as CONFLICT, a reference to a row that
 * vanished as NOT_FOUND. `update*` methods run `change` inside the transaction, on the
 * current row, and store what it returns; if it throws, nothing is written.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** What search reads (search-store.ts). */
  readonly search: SearchStore;
  /** Automatic linking (link-store.ts). */
  readonly links: LinkStore;
  /** The durable queue of background work (link-store.ts). */
  readonly work: WorkQueue;
  /** Snapshot vectors for semantic search (vector-store.ts). */
  readonly vectors: VectorStore;
  /** Crystallize runs, captures and specific knowledge (knowledge-store.ts). */
  readonly knowledge: KnowledgeStore;
  /** Long work run as jobs (job-store.ts). */
  readonly jobs: JobStore;
  /** Responses kept for `Idempotency-Key` (job-store.ts). */
  readonly idempotency: IdempotencyStore;
  /** Memories (memory-store.ts). */
  readonly memories: MemoryStore;
  /** Export and import of whole brains (transfer-store.ts). */
  readonly transfer: TransferStore;

  migrate(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;

  provisionKey(p: KeyProvisioning): Promise<void>;
  /** Called on every request: may answer synchronously (SQLite, from a cache it keeps valid). */
  findApiKeyByHash(keyHash: string): MaybePromise<ApiKeyRecord | undefined>;
  getApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  updateApiKey(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined>;
  countActiveApiKeys(): Promise<number>;

  getAccount(id: string): Promise<Account | undefined>;
  /** With `newAccount`, the account is created with the brain, in one transaction. */
  insertBrain(brain: Brain, newAccount?: Account): Promise<void>;
  getBrain(accountId: string, brainId: string): Promise<BrainWithCounts | undefined>;
  /** Runs `change` on the brain inside the transaction and stores name and auto_link. */
  updateBrain(accountId: string, id: string, change: (current: Brain) => Brain): Promise<BrainWithCounts | undefined>;
  /** A cheap existence check, without the counts getBrain computes. */
  hasBrain(accountId: string, brainId: string): Promise<boolean>;
  /** For operators (the CLI): a brain whatever its account. */
  getBrainUnscoped(brainId: string): Promise<BrainWithCounts | undefined>;
  listBrains(accountId: string | undefined, page: Page): Promise<PageOf<BrainWithCounts>>;

  insertSnapshot(accountId: string, snapshot: Snapshot): Promise<void>;
  getSnapshot(accountId: string, id: string): Promise<Snapshot | undefined>;
  /** The same snapshot as the API's JSON text, built by the database: the GET-one hot path. */
  getSnapshotJson(accountId: string, id: string): MaybePromise<string | undefined>;
  /** A page of snapshots as JSON text (built by the database) and the total of all matches. */
  listSnapshots(query: SnapshotQuery): Promise<PageOf<JsonRow>>;
  updateSnapshot(accountId: string, id: string, change: (current: Snapshot) => Snapshot): Promise<Snapshot | undefined>;
  /** Deletes the snapshot and every edge attached to it, atomically. */
  deleteSnapshot(accountId: string, id: string): Promise<boolean>;

  insertEdge(accountId: string, edge: Edge): Promise<void>;
  getEdge(accountId: string, id: string): Promise<Edge | undefined>;
  /**
   * A page of edges as JSON text (built by the database) and the total of all matches, or
   * undefined when the scope's brain or snapshot is not the account's.
   */
  listEdges(query: EdgeQuery): Promise<PageOf<JsonRow> | undefined>;
  updateEdge(accountId: string, id: string, change: (current: Edge) => Edge): Promise<Edge | undefined>;
  /** Deletes the edge and records its tombstone (DESIGN 4.2), atomically. */
  deleteEdge(accountId: string, id: string, at: string): Promise<boolean>;
}
