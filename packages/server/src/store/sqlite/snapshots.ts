import type { JsonRow, PageOf, Snapshot } from '../../model.js';
import type { SnapshotQuery, SnapshotStore } from '../snapshot-store.js';
import { SNAPSHOT_COLUMNS } from '../columns.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { COUNT_OF_KIND, NEWEST_FIRST as newestFirst, preparers } from './prepared.js';
import { snapshotFromRow, snapshotToRow, type SnapshotRow } from './rows.js';
import { snapshotJson } from './snapshot-json.js';
import { tagPhrase } from './fts-search.js';
import { translateSqliteError } from './sqlite-errors.js';
import { REPOINT_PROMOTION } from './memories.js';

const snapshotColumns = SNAPSHOT_COLUMNS.join(', ');
/**
 * A list filtered by a tag checks the exact tag on each snapshot it reads. A small brain is read
 * whole; a larger one reads only the snapshots that the full-text index finds holding the tag
 * (tagPhrase: its matches in the whole database, then the brain's), unless the tag has no
 * letters or digits to look up.
 */
const TAG_SCAN_MAX = 2_000;
const TAGGED_BY_INDEX = `id IN (SELECT r.snapshot_id FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
    WHERE snapshot_search MATCH @match AND r.brain_id = @brain_id AND (@type IS NULL OR r.type = @type))`;
const TAGGED_BY_SCAN = 'brain_id = @brain_id AND (@type IS NULL OR type = @type)';
const HAS_TAG = 'EXISTS (SELECT 1 FROM json_each(snapshots.tags) WHERE json_each.value = @tag)';
const AFTER = '(@after_at IS NULL OR (created_at, id) < (@after_at, @after_id))';
const snapshotJsonRow = `created_at, id, ${snapshotJson} AS json`;
const snapshotInsertColumns = ['account_id', ...SNAPSHOT_COLUMNS];

/** A tagged list's page and count over the snapshots `where` selects, checked for the exact tag. */
function taggedStatements(prepared: ReturnType<typeof preparers>['prepared'], where: string) {
  return {
    list: prepared<Record<string, unknown>, JsonRow>(
      `SELECT ${snapshotJsonRow} FROM snapshots WHERE ${where} AND ${HAS_TAG} AND ${AFTER} ${newestFirst} LIMIT @limit OFFSET @offset`,
    ),
    count: prepared<Record<string, unknown>, { n: number }>(
      `SELECT count(*) AS n FROM snapshots WHERE ${where} AND ${HAS_TAG}`,
    ),
  };
}

/** Snapshots on SQLite; pages and GET-one read as JSON text that SQLite builds. */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly stmt;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    const { prepared, preparedValue } = preparers(db);
    this.stmt = {
      insertSnapshot: prepared<Record<string, unknown>, never>(
        `INSERT INTO snapshots (${snapshotInsertColumns.join(', ')})
         VALUES (${snapshotInsertColumns.map((c) => `@${c}`).join(', ')})`,
      ),
      getSnapshotJson: preparedValue<[string, string], string>(
        `SELECT ${snapshotJson} FROM snapshots WHERE id = ? AND account_id = ?`,
      ),
      getSnapshot: prepared<[string, string], SnapshotRow>(
        `SELECT ${snapshotColumns} FROM snapshots WHERE id = ? AND account_id = ?`,
      ),
      listSnapshots: prepared<[string, number, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? ${newestFirst} LIMIT ? OFFSET ?`,
      ),
      countOfKind: prepared<[string, string], { n: number }>(COUNT_OF_KIND),
      listSnapshotsAfter: prepared<[string, string, string, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? AND (created_at, id) < (?, ?) ${newestFirst} LIMIT ?`,
      ),
      listSnapshotsOfTypeAfter: prepared<[string, string, string, string, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? AND type = ? AND (created_at, id) < (?, ?) ${newestFirst} LIMIT ?`,
      ),
      listSnapshotsOfType: prepared<[string, string, number, number], JsonRow>(
        `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = ? AND type = ? ${newestFirst} LIMIT ? OFFSET ?`,
      ),
      taggedByIndex: taggedStatements(prepared, TAGGED_BY_INDEX),
      taggedByScan: taggedStatements(prepared, TAGGED_BY_SCAN),
      updateSnapshot: prepared<Record<string, unknown>, never>(
        `UPDATE snapshots SET ${SNAPSHOT_COLUMNS.filter((c) => c !== 'id')
          .map((c) => `${c} = @${c}`)
          .join(', ')} WHERE id = @id AND account_id = @account_id`,
      ),
      deleteSnapshot: prepared<[string, string], { source_type: string | null; source_id: string | null }>(
        'DELETE FROM snapshots WHERE id = ? AND account_id = ? RETURNING source_type, source_id',
      ),
      repointPromotion: prepared<Record<string, string>, never>(REPOINT_PROMOTION),
    };
  }

  insert(accountId: string, snapshot: Snapshot): Promise<void> {
    const row = snapshotToRow(accountId, snapshot);
    return this.writes.run(() => {
      try {
        this.stmt.insertSnapshot().run(row);
      } catch (err) {
        throw translateSqliteError(err, { conflict: 'snapshot already exists', missing: 'brain' });
      }
    });
  }

  /** The JSON text, synchronously (for ImmediateReads). */
  getJsonNow(accountId: string, id: string): string | undefined {
    return this.stmt.getSnapshotJson().get(id, accountId);
  }

  async getJson(accountId: string, id: string): Promise<string | undefined> {
    return this.getJsonNow(accountId, id);
  }

  async get(accountId: string, id: string): Promise<Snapshot | undefined> {
    const row = this.stmt.getSnapshot().get(id, accountId);
    return row && snapshotFromRow(row);
  }

  async list(q: SnapshotQuery): Promise<PageOf<JsonRow>> {
    if (q.tag !== undefined) return this.listTagged(q, q.tag);
    // Rows and count in one read transaction, so `count` describes the same state as the page.
    return this.db.transaction(() => {
      const after = q.after;
      const rows = after
        ? q.type === undefined
          ? this.stmt.listSnapshotsAfter().all(q.brainId, after.created_at, after.id, q.limit)
          : this.stmt.listSnapshotsOfTypeAfter().all(q.brainId, q.type, after.created_at, after.id, q.limit)
        : q.type === undefined
          ? this.stmt.listSnapshots().all(q.brainId, q.limit, q.offset)
          : this.stmt.listSnapshotsOfType().all(q.brainId, q.type, q.limit, q.offset);
      const total = this.stmt.countOfKind().get(q.brainId, q.type === undefined ? 'snapshots' : `snapshots:${q.type}`);
      return { rows, total: total?.n ?? 0 };
    })();
  }

  private listTagged(q: SnapshotQuery, tag: string): PageOf<JsonRow> {
    const phrase = tagPhrase(tag);
    const page = {
      after_at: q.after?.created_at ?? null,
      after_id: q.after?.id ?? null,
      limit: q.limit,
      offset: q.offset,
    };
    return this.db.transaction(() => {
      const size = this.stmt.countOfKind().get(q.brainId, 'snapshots')?.n ?? 0;
      const byIndex = phrase !== undefined && size > TAG_SCAN_MAX;
      const filter = { brain_id: q.brainId, type: q.type ?? null, tag, ...(byIndex ? { match: phrase } : {}) };
      const { list, count } = byIndex ? this.stmt.taggedByIndex : this.stmt.taggedByScan;
      return { rows: list().all({ ...filter, ...page }), total: count().get(filter)?.n ?? 0 };
    })();
  }

  update(accountId: string, id: string, change: (current: Snapshot) => Snapshot): Promise<Snapshot | undefined> {
    return this.writes.run(() => {
      const row = this.stmt.getSnapshot().get(id, accountId);
      if (!row) return undefined;
      const next = change(snapshotFromRow(row));
      this.stmt.updateSnapshot().run(snapshotToRow(accountId, next));
      return next;
    });
  }

  delete(accountId: string, id: string, at: string): Promise<boolean> {
    // Edges go with it through ON DELETE CASCADE, inside this same savepoint; so does the change
    // to a memory promoted into it.
    return this.writes.run(() => {
      const gone = this.stmt.deleteSnapshot().get(id, accountId);
      if (gone === undefined) return false;
      if (gone.source_type === 'memory' && gone.source_id !== null) {
        this.stmt.repointPromotion().run({ memory_id: gone.source_id, account_id: accountId, snapshot_id: id, at });
      }
      return true;
    });
  }
}
