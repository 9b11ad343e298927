import type { Brain } from '../../model.js';

/**
 * The statements that create an account and a brain, shared by the brain store and the key
 * store (a key may be provisioned with a fresh account and brain, in one transaction).
 */
export const INSERT_ACCOUNT = 'INSERT INTO accounts (id, created_at) VALUES (?, ?)';
export const INSERT_BRAIN =
  'INSERT INTO brains (id, account_id, name, auto_link, created_at, updated_at) VALUES (@id, @account_id, @name, @auto_link, @created_at, @updated_at)';

/** better-sqlite3 binds no booleans: auto_link is stored as 0 or 1. */
export const brainToRow = (brain: Brain & { account_id: string }) => ({
  ...brain,
  auto_link: brain.auto_link ? 1 : 0,
});
