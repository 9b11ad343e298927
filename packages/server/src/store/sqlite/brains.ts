import type { Account, Brain, BrainWithCounts, Page, PageOf } from '../../model.js';
import type { BrainStore } from '../brain-store.js';
import { brainFromRow, MEMORY_COUNT_COLUMN, PENDING_WORK_COLUMNS, type BrainRow } from '../brain-rows.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { preparers } from './prepared.js';
import { translateSqliteError } from './sqlite-errors.js';
import { brainToRow, INSERT_ACCOUNT, INSERT_BRAIN } from './brain-sql.js';

const counted = (kind: string) =>
  `coalesce((SELECT n FROM brain_counts c WHERE c.brain_id = b.id AND c.kind = '${kind}'), 0)`;
const brainColumns = `b.id, b.account_id, b.name, b.auto_link, b.created_at, b.updated_at,
  ${counted('snapshots')} AS snapshot_count, ${counted('edges')} AS edge_count, ${MEMORY_COUNT_COLUMN},
  ${PENDING_WORK_COLUMNS}`;

/** Brains on SQLite, their counts read from the kept brain_counts (migration 2). */
export class SqliteBrainStore implements BrainStore {
  private readonly stmt;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    const { prepared } = preparers(db);
    this.stmt = {
      insertAccount: prepared<[string, string], never>(INSERT_ACCOUNT),
      insertBrain: prepared<Record<string, unknown>, never>(INSERT_BRAIN),
      updateBrain: prepared<Record<string, unknown>, never>(
        'UPDATE brains SET name = @name, auto_link = @auto_link, updated_at = @updated_at WHERE id = @id AND account_id = @account_id',
      ),
      getBrain: prepared<[string, string], BrainRow>(
        `SELECT ${brainColumns} FROM brains b WHERE b.id = ? AND b.account_id = ?`,
      ),
      hasBrain: prepared<[string, string], { id: string }>('SELECT id FROM brains WHERE id = ? AND account_id = ?'),
      getBrainUnscoped: prepared<[string], BrainRow>(`SELECT ${brainColumns} FROM brains b WHERE b.id = ?`),
      listBrains: prepared<[string, number, number], BrainRow>(
        `SELECT ${brainColumns} FROM brains b WHERE b.account_id = ? ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?`,
      ),
      countBrains: prepared<[string], { n: number }>('SELECT count(*) AS n FROM brains WHERE account_id = ?'),
      listAllBrains: prepared<[number, number], BrainRow>(
        `SELECT ${brainColumns} FROM brains b ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?`,
      ),
      countAllBrains: prepared<[], { n: number }>('SELECT count(*) AS n FROM brains'),
    };
  }

  insert(brain: Brain, newAccount?: Account): Promise<void> {
    return this.writes.run(() => {
      try {
        if (newAccount) this.stmt.insertAccount().run(newAccount.id, newAccount.created_at);
        this.stmt.insertBrain().run(brainToRow(brain));
      } catch (err) {
        throw translateSqliteError(err, { conflict: 'brain already exists', missing: 'account' });
      }
    });
  }

  async get(accountId: string, brainId: string): Promise<BrainWithCounts | undefined> {
    const row = this.stmt.getBrain().get(brainId, accountId);
    return row && brainFromRow(row);
  }

  update(accountId: string, id: string, change: (current: Brain) => Brain): Promise<BrainWithCounts | undefined> {
    return this.writes.run(() => {
      const row = this.stmt.getBrain().get(id, accountId);
      if (!row) return undefined;
      const next = change(brainFromRow(row));
      this.stmt.updateBrain().run(brainToRow(next));
      const updated = this.stmt.getBrain().get(id, accountId);
      return updated && brainFromRow(updated);
    });
  }

  async has(accountId: string, brainId: string): Promise<boolean> {
    return this.stmt.hasBrain().get(brainId, accountId) !== undefined;
  }

  async getUnscoped(brainId: string): Promise<BrainWithCounts | undefined> {
    const row = this.stmt.getBrainUnscoped().get(brainId);
    return row && brainFromRow(row);
  }

  async list(accountId: string | undefined, page: Page): Promise<PageOf<BrainWithCounts>> {
    return this.db.transaction(() => {
      if (accountId === undefined) {
        return {
          rows: this.stmt.listAllBrains().all(page.limit, page.offset).map(brainFromRow),
          total: this.stmt.countAllBrains().get()?.n ?? 0,
        };
      }
      return {
        rows: this.stmt.listBrains().all(accountId, page.limit, page.offset).map(brainFromRow),
        total: this.stmt.countBrains().get(accountId)?.n ?? 0,
      };
    })();
  }
}
