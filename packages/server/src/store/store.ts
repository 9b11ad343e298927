import type { ApiKeyRecord } from '../model.js';
import type { KeyStore } from './key-store.js';
import type { BrainStore } from './brain-store.js';
import type { SnapshotStore } from './snapshot-store.js';
import type { EdgeStore } from './edge-store.js';
import type { KnowledgeStore } from './knowledge-store.js';
import type { MemoryStore } from './memory-store.js';
import type { SearchStore } from './search-store.js';
import type { LinkStore, WorkQueue } from './link-store.js';
import type { VectorStore } from './vector-store.js';
import type { IdempotencyStore, JobStore } from './job-store.js';
import type { TransferStore } from './transfer-store.js';

export type { KeyProvisioning } from './key-store.js';
export type { SnapshotQuery } from './snapshot-store.js';
export type { EdgeQuery, EdgeScope } from './edge-store.js';

/**
 * Reads a store can answer synchronously, run together in one read transaction: they see one
 * state of the database and pay for its locks once. Only the embedded store has them, and the
 * GET-one fast path (http/fast-path/snapshot-read.ts) exists only where they do: it answers
 * without a promise, a suspension or Fastify's request objects.
 */
export interface ImmediateReads {
  /** Runs `read` in one read transaction (in a savepoint inside another transaction). */
  readTogether<T>(read: () => T): T;
  findApiKeyByHash(keyHash: string): ApiKeyRecord | undefined;
  getSnapshotJson(accountId: string, id: string): string | undefined;
}

/**
 * The differences between the backends that callers may see, in one object per backend (each
 * backend's class declares its own): everything else is the same interface answering the same.
 */
export interface StoreCapabilities {
  /** Whether text may hold U+0000 (domain/nul-text.ts): SQLite keeps it, PostgreSQL cannot. */
  readonly storesNul: boolean;
  /** Present only where reads can be answered synchronously (the embedded store). */
  readonly immediateReads?: ImmediateReads | undefined;
}

/**
 * Everything Snapgraph keeps, behind one interface that the SQLite and PostgreSQL
 * implementations both satisfy, composed of one interface per resource, each a field
 * (`store.snapshots.insert(…)`, `store.memories.search(…)`). Each backend has one file per resource
 * (store/sqlite/*.ts, store/postgres/*.ts) under the same name. Every method is one
 * transaction. Reads of tenant data take the caller's account id, so another account's rows
 * are simply not found.
 *
 * Failures come out as AppError: a duplicate edge as CONFLICT, a reference to a row that
 * vanished as NOT_FOUND. `update*` methods run `change` inside the transaction, on the
 * current row, and store what it returns; if it throws, nothing is written.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** API keys and their accounts (key-store.ts). */
  readonly keys: KeyStore;
  /** Brains (brain-store.ts). */
  readonly brains: BrainStore;
  /** Snapshots (snapshot-store.ts). */
  readonly snapshots: SnapshotStore;
  /** Edges (edge-store.ts). */
  readonly edges: EdgeStore;
  /** What this backend can do that the other cannot, declared in one place. */
  readonly capabilities: StoreCapabilities;
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
}
