/** Statements the key and edge stores share: one name, one text, on every connection. */
export const BRAIN_SQL = {
  insertAccount: 'INSERT INTO accounts (id, created_at) VALUES ($1, $2)',
  insertBrain:
    'INSERT INTO brains (id, account_id, name, auto_link, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)',
  hasBrain: 'SELECT 1 FROM brains WHERE id = $1 AND account_id = $2',
  hasSnapshot: 'SELECT 1 FROM snapshots WHERE id = $1 AND account_id = $2',
} as const;
