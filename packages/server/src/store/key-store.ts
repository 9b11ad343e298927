import type { Account, ApiKeyRecord, Brain } from '../model.js';
import type { MaybePromise } from '../maybe.js';

/** What to create along with a key: a fresh account and brain, or neither. */
export interface KeyProvisioning {
  account?: Account;
  brain?: Brain;
  key: ApiKeyRecord;
}

/** API keys and the accounts they belong to. */
export interface KeyStore {
  provisionKey(p: KeyProvisioning): Promise<void>;
  /**
   * Called on every request: may answer synchronously (SQLite, from a cache it keeps valid), so
   * that authentication costs no promise where the store needs none (docs/decisions.md).
   */
  findApiKeyByHash(keyHash: string): MaybePromise<ApiKeyRecord | undefined>;
  getApiKey(id: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  updateApiKey(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined>;
  countActiveApiKeys(): Promise<number>;
  getAccount(id: string): Promise<Account | undefined>;
}
