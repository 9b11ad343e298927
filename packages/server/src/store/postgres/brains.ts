import type pg from 'pg';
import type { Account, Brain, BrainWithCounts, Page, PageOf } from '../../model.js';
import type { BrainStore } from '../brain-store.js';
import { brainFromRow, MEMORY_COUNT_COLUMN, PENDING_WORK_COLUMNS, type BrainRow } from '../brain-rows.js';
import { translatePostgresError } from './pg-errors.js';
import { NamedQueries, type Queryable } from './queries.js';
import { BRAIN_SQL } from './brain-sql.js';

const brainColumns = `b.id, b.account_id, b.name, b.auto_link, b.created_at, b.updated_at,
  (SELECT count(*) FROM snapshots s WHERE s.brain_id = b.id)::int AS snapshot_count,
  (SELECT count(*) FROM edges e WHERE e.brain_id = b.id)::int AS edge_count, ${MEMORY_COUNT_COLUMN},
  ${PENDING_WORK_COLUMNS}`;

const SQL = {
  ...BRAIN_SQL,
  getBrainForUpdate: 'SELECT id FROM brains WHERE id = $1 AND account_id = $2 FOR UPDATE',
  updateBrain: 'UPDATE brains SET name = $3, auto_link = $4, updated_at = $5 WHERE id = $1 AND account_id = $2',
  getBrain: `SELECT ${brainColumns} FROM brains b WHERE b.id = $1 AND b.account_id = $2`,
  getBrainUnscoped: `SELECT ${brainColumns} FROM brains b WHERE b.id = $1`,
  listBrains: `SELECT ${brainColumns} FROM brains b WHERE b.account_id = $1 ORDER BY b.created_at DESC, b.id DESC LIMIT $2 OFFSET $3`,
  countBrains: 'SELECT count(*)::int AS n FROM brains WHERE account_id = $1',
  listAllBrains: `SELECT ${brainColumns} FROM brains b ORDER BY b.created_at DESC, b.id DESC LIMIT $1 OFFSET $2`,
  countAllBrains: 'SELECT count(*)::int AS n FROM brains',
} as const;

/** Brains on PostgreSQL, their counts counted when read. */
export class PostgresBrainStore extends NamedQueries<keyof typeof SQL> implements BrainStore {
  constructor(pool: pg.Pool) {
    super(pool, SQL);
  }

  async insert(brain: Brain, newAccount?: Account): Promise<void> {
    const row = [brain.id, brain.account_id, brain.name, brain.auto_link, brain.created_at, brain.updated_at];
    try {
      if (!newAccount) await this.run('insertBrain', row);
      else
        await this.transaction(async (client) => {
          await this.run('insertAccount', [newAccount.id, newAccount.created_at], client);
          await this.run('insertBrain', row, client);
        });
    } catch (err) {
      throw translatePostgresError(err, { conflict: 'brain already exists', missing: 'account' });
    }
  }

  async has(accountId: string, brainId: string): Promise<boolean> {
    return (await this.one('hasBrain', [brainId, accountId])) !== undefined;
  }

  async get(accountId: string, brainId: string, db: Queryable = this.pool): Promise<BrainWithCounts | undefined> {
    const row = await this.one<BrainRow>('getBrain', [brainId, accountId], db);
    return row && brainFromRow(row);
  }

  update(accountId: string, id: string, change: (current: Brain) => Brain): Promise<BrainWithCounts | undefined> {
    return this.transaction(async (client) => {
      if (!(await this.one('getBrainForUpdate', [id, accountId], client))) return undefined;
      const current = (await this.get(accountId, id, client)) as BrainWithCounts;
      const next = change(current);
      await this.run('updateBrain', [id, accountId, next.name, next.auto_link, next.updated_at], client);
      return this.get(accountId, id, client);
    });
  }

  async getUnscoped(brainId: string): Promise<BrainWithCounts | undefined> {
    const row = await this.one<BrainRow>('getBrainUnscoped', [brainId]);
    return row && brainFromRow(row);
  }

  async list(accountId: string | undefined, page: Page): Promise<PageOf<BrainWithCounts>> {
    const [rows, total] = await Promise.all(
      accountId === undefined
        ? [this.rows<BrainRow>('listAllBrains', [page.limit, page.offset]), this.count('countAllBrains', [])]
        : [
            this.rows<BrainRow>('listBrains', [accountId, page.limit, page.offset]),
            this.count('countBrains', [accountId]),
          ],
    );
    return { rows: (rows as BrainRow[]).map(brainFromRow), total: total as number };
  }
}
