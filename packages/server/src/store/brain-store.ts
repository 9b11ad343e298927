import type { Account, Brain, BrainWithCounts, Page, PageOf } from '../model.js';

/** Brains, with the counts of what they hold. */
export interface BrainStore {
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
}
