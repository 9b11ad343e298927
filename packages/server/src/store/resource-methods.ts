import type { Account, ApiKeyRecord, Brain, BrainWithCounts, Edge, JsonRow, Page, PageOf, Snapshot } from '../model.js';
import type { MaybePromise } from '../maybe.js';
import type { KeyProvisioning, KeyStore } from './key-store.js';
import type { BrainStore } from './brain-store.js';
import type { SnapshotQuery, SnapshotStore } from './snapshot-store.js';
import type { EdgeQuery, EdgeStore } from './edge-store.js';

/**
 * The methods Store has of its own (keys, brains, snapshots, edges), written once for both
 * backends: each is handed to the backend's store of that resource, which each backend's class
 * (SqliteStore, PostgresStore) makes in its constructor.
 */
export abstract class ResourceMethods implements KeyStore, BrainStore, SnapshotStore, EdgeStore {
  protected abstract readonly keys: KeyStore;
  protected abstract readonly brains: BrainStore;
  protected abstract readonly snapshots: SnapshotStore;
  protected abstract readonly edges: EdgeStore;

  // Keys and accounts (key-store.ts).
  provisionKey(p: KeyProvisioning): Promise<void> {
    return this.keys.provisionKey(p);
  }
  findApiKeyByHash(keyHash: string): MaybePromise<ApiKeyRecord | undefined> {
    return this.keys.findApiKeyByHash(keyHash);
  }
  getApiKey(id: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.getApiKey(id);
  }
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    return this.keys.listApiKeys(accountId);
  }
  updateApiKey(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined> {
    return this.keys.updateApiKey(id, change);
  }
  countActiveApiKeys(): Promise<number> {
    return this.keys.countActiveApiKeys();
  }
  getAccount(id: string): Promise<Account | undefined> {
    return this.keys.getAccount(id);
  }

  // Brains (brain-store.ts).
  insertBrain(brain: Brain, newAccount?: Account): Promise<void> {
    return this.brains.insertBrain(brain, newAccount);
  }
  getBrain(accountId: string, brainId: string): Promise<BrainWithCounts | undefined> {
    return this.brains.getBrain(accountId, brainId);
  }
  updateBrain(accountId: string, id: string, change: (current: Brain) => Brain): Promise<BrainWithCounts | undefined> {
    return this.brains.updateBrain(accountId, id, change);
  }
  hasBrain(accountId: string, brainId: string): Promise<boolean> {
    return this.brains.hasBrain(accountId, brainId);
  }
  getBrainUnscoped(brainId: string): Promise<BrainWithCounts | undefined> {
    return this.brains.getBrainUnscoped(brainId);
  }
  listBrains(accountId: string | undefined, page: Page): Promise<PageOf<BrainWithCounts>> {
    return this.brains.listBrains(accountId, page);
  }

  // Snapshots (snapshot-store.ts).
  insertSnapshot(accountId: string, snapshot: Snapshot): Promise<void> {
    return this.snapshots.insertSnapshot(accountId, snapshot);
  }
  getSnapshot(accountId: string, id: string): Promise<Snapshot | undefined> {
    return this.snapshots.getSnapshot(accountId, id);
  }
  getSnapshotJson(accountId: string, id: string): MaybePromise<string | undefined> {
    return this.snapshots.getSnapshotJson(accountId, id);
  }
  listSnapshots(query: SnapshotQuery): Promise<PageOf<JsonRow>> {
    return this.snapshots.listSnapshots(query);
  }
  updateSnapshot(
    accountId: string,
    id: string,
    change: (current: Snapshot) => Snapshot,
  ): Promise<Snapshot | undefined> {
    return this.snapshots.updateSnapshot(accountId, id, change);
  }
  deleteSnapshot(accountId: string, id: string, at: string): Promise<boolean> {
    return this.snapshots.deleteSnapshot(accountId, id, at);
  }

  // Edges (edge-store.ts).
  insertEdge(accountId: string, edge: Edge): Promise<void> {
    return this.edges.insertEdge(accountId, edge);
  }
  getEdge(accountId: string, id: string): Promise<Edge | undefined> {
    return this.edges.getEdge(accountId, id);
  }
  listEdges(query: EdgeQuery): Promise<PageOf<JsonRow> | undefined> {
    return this.edges.listEdges(query);
  }
  updateEdge(accountId: string, id: string, change: (current: Edge) => Edge): Promise<Edge | undefined> {
    return this.edges.updateEdge(accountId, id, change);
  }
  deleteEdge(accountId: string, id: string, at: string): Promise<boolean> {
    return this.edges.deleteEdge(accountId, id, at);
  }
}
