import type { Account, ApiKeyRecord, Brain } from '../model.js';

/** What to create along with a key: a fresh account and brain, or neither. */
export interface KeyProvisioning {
  account?: Account;
  brain?: Brain;
  key: ApiKeyRecord;
}

/** API keys and the accounts they belong to. */
export interface KeyStore {
  provision(p: KeyProvisioning): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /**
   * The same answer without waiting, where the store has it at hand: SQLite always (a cache it
   * keeps valid, else one synchronous read), PostgreSQL from its key cache. Undefined means
   * "ask findByHash". Called on every request, so that authentication costs no promise where
   * the store needs none (docs/decisions.md).
   */
  findByHashNow(keyHash: string): ApiKeyRecord | undefined;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  list(accountId?: string): Promise<ApiKeyRecord[]>;
  update(id: string, change: (current: ApiKeyRecord) => ApiKeyRecord): Promise<ApiKeyRecord | undefined>;
  countActive(): Promise<number>;
  getAccount(id: string): Promise<Account | undefined>;
}
