import type { Account, Brain, BrainWithCounts, Page, PageOf } from '../model.js';

/** Brains, with the counts of what they hold. */
export interface BrainStore {
  /** With `newAccount`, the account is created with the brain, in one transaction. */
  insert(brain: Brain, newAccount?: Account): Promise<void>;
  get(accountId: string, brainId: string): Promise<BrainWithCounts | undefined>;
  /** Runs `change` on the brain inside the transaction and stores name and auto_link. */
  update(accountId: string, id: string, change: (current: Brain) => Brain): Promise<BrainWithCounts | undefined>;
  /** A cheap existence check, without the counts getBrain computes. */
  has(accountId: string, brainId: string): Promise<boolean>;
  /** For operators (the CLI): a brain whatever its account. */
  getUnscoped(brainId: string): Promise<BrainWithCounts | undefined>;
  list(accountId: string | undefined, page: Page): Promise<PageOf<BrainWithCounts>>;
}
