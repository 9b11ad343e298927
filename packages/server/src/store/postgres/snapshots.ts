import type pg from 'pg';
import type { JsonRow, PageOf, Snapshot } from '../../model.js';
import type { SnapshotQuery, SnapshotStore } from '../snapshot-store.js';
import { SNAPSHOT_COLUMNS } from '../columns.js';
import { snapshotJson } from './snapshot-json.js';
import { snapshotValues } from './snapshot-values.js';
import { translatePostgresError } from './pg-errors.js';
import { NamedQueries } from './queries.js';

const snapshotColumns = SNAPSHOT_COLUMNS.join(', ');
const snapshotJsonRow = `created_at, id, ${snapshotJson} AS json`;
const snapshotInsertColumns = ['account_id', ...SNAPSHOT_COLUMNS];
const snapshotUpdateColumns = SNAPSHOT_COLUMNS.filter((c) => c !== 'id');
const newestFirst = 'ORDER BY created_at DESC, id DESC';

const TAGGED = `brain_id = $1 AND ($2::text IS NULL OR type = $2)
    AND EXISTS (SELECT 1 FROM json_array_elements_text(tags) t WHERE t = $3)`;

const SQL = {
  insertSnapshot: `INSERT INTO snapshots (${snapshotInsertColumns.join(', ')})
    VALUES (${snapshotInsertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
  getSnapshot: `SELECT ${snapshotColumns} FROM snapshots WHERE id = $1 AND account_id = $2`,
  getSnapshotJson: `SELECT ${snapshotJson} AS json FROM snapshots WHERE id = $1 AND account_id = $2`,
  getSnapshotForUpdate: `SELECT ${snapshotColumns} FROM snapshots WHERE id = $1 AND account_id = $2 FOR UPDATE`,
  listSnapshots: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 ${newestFirst} LIMIT $2 OFFSET $3`,
  countSnapshots: 'SELECT count(*)::int AS n FROM snapshots WHERE brain_id = $1',
  listSnapshotsAfter: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 AND (created_at, id) < ($2, $3) ${newestFirst} LIMIT $4`,
  listSnapshotsOfTypeAfter: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 AND type = $2 AND (created_at, id) < ($3, $4) ${newestFirst} LIMIT $5`,
  listSnapshotsOfType: `SELECT ${snapshotJsonRow} FROM snapshots WHERE brain_id = $1 AND type = $2 ${newestFirst} LIMIT $3 OFFSET $4`,
  countSnapshotsOfType: 'SELECT count(*)::int AS n FROM snapshots WHERE brain_id = $1 AND type = $2',
  // A tag: the brain's snapshots (of the type, if one is asked for) checked for the exact tag.
  // $1 brain, $2 type or null, $3 tag, $4/$5 the cursor's position or nulls, $6 limit, $7 offset.
  listTagged: `SELECT ${snapshotJsonRow} FROM snapshots WHERE ${TAGGED}
    AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::text)) ${newestFirst} LIMIT $6 OFFSET $7`,
  countTagged: `SELECT count(*)::int AS n FROM snapshots WHERE ${TAGGED}`,
  updateSnapshot: `UPDATE snapshots SET ${snapshotUpdateColumns.map((c, i) => `${c} = $${i + 3}`).join(', ')}
    WHERE id = $1 AND account_id = $2`,
  // The memory promoted into the snapshot, locked before the delete: two deletes of one
  // promotion's snapshots at once would each see the other's snapshot still there, and the
  // second could move promoted_to onto the first's deleted one.
  lockPromotion: `SELECT m.id FROM memories m JOIN snapshots s ON s.source_id = m.id AND s.account_id = m.account_id
    WHERE s.id = $1 AND s.account_id = $2 AND s.source_type = 'memory' FOR UPDATE OF m`,
  // One statement, after that lock (with a snapshot of the data taken after it): the snapshot
  // (its edges by ON DELETE CASCADE) and, for a snapshot a memory was promoted into, that
  // memory's promoted_to moved to the next snapshot of the promotion or null, its updated_at to
  // $3 (or 1 ms past its own, should that be later). The subquery still sees the deleted row
  // (one snapshot of the data per statement), hence <>.
  deleteSnapshot: `WITH gone AS (
      DELETE FROM snapshots WHERE id = $1 AND account_id = $2 RETURNING id, account_id, source_type, source_id
    ), repointed AS (
      UPDATE memories m SET
        promoted_to = (SELECT s.id FROM snapshots s
          WHERE s.source_id = m.id AND s.source_type = 'memory' AND s.account_id = m.account_id
            AND s.brain_id = m.brain_id AND s.id <> gone.id
          ORDER BY s.created_at, s.id LIMIT 1),
        updated_at = GREATEST($3::timestamptz, m.updated_at + interval '1 millisecond')
      FROM gone
      WHERE gone.source_type = 'memory' AND m.id = gone.source_id AND m.account_id = gone.account_id
        AND m.promoted_to = gone.id
    )
    SELECT count(*)::int AS n FROM gone`,
} as const;

/** Snapshots on PostgreSQL; pages and GET-one read as JSON text that PostgreSQL builds. */
export class PostgresSnapshotStore extends NamedQueries<keyof typeof SQL> implements SnapshotStore {
  constructor(pool: pg.Pool) {
    super(pool, SQL);
  }

  async insert(accountId: string, snapshot: Snapshot): Promise<void> {
    try {
      await this.run('insertSnapshot', [accountId, ...snapshotValues(snapshot)]);
    } catch (err) {
      throw translatePostgresError(err, { conflict: 'snapshot already exists', missing: 'brain' });
    }
  }

  get(accountId: string, id: string): Promise<Snapshot | undefined> {
    return this.one<Snapshot>('getSnapshot', [id, accountId]);
  }

  async getJson(accountId: string, id: string): Promise<string | undefined> {
    return (await this.one<{ json: string }>('getSnapshotJson', [id, accountId]))?.json;
  }

  async list(q: SnapshotQuery): Promise<PageOf<JsonRow>> {
    // One query for the page and one for the count, whatever the page size; run side by side.
    const after = q.after;
    if (q.tag !== undefined) {
      const filter = [q.brainId, q.type ?? null, q.tag];
      const [rows, total] = await Promise.all([
        this.rows<JsonRow>('listTagged', [...filter, after?.created_at ?? null, after?.id ?? null, q.limit, q.offset]),
        this.count('countTagged', filter),
      ]);
      return { rows, total };
    }
    const page =
      q.type === undefined
        ? after
          ? this.rows<JsonRow>('listSnapshotsAfter', [q.brainId, after.created_at, after.id, q.limit])
          : this.rows<JsonRow>('listSnapshots', [q.brainId, q.limit, q.offset])
        : after
          ? this.rows<JsonRow>('listSnapshotsOfTypeAfter', [q.brainId, q.type, after.created_at, after.id, q.limit])
          : this.rows<JsonRow>('listSnapshotsOfType', [q.brainId, q.type, q.limit, q.offset]);
    const count =
      q.type === undefined
        ? this.count('countSnapshots', [q.brainId])
        : this.count('countSnapshotsOfType', [q.brainId, q.type]);
    const [rows, total] = await Promise.all([page, count]);
    return { rows, total };
  }

  update(accountId: string, id: string, change: (current: Snapshot) => Snapshot): Promise<Snapshot | undefined> {
    return this.transaction(async (client) => {
      const current = await this.one<Snapshot>('getSnapshotForUpdate', [id, accountId], client);
      if (!current) return undefined;
      const next = change(current);
      await this.run('updateSnapshot', [id, accountId, ...snapshotValues(next).slice(1)], client);
      return next;
    });
  }

  async delete(accountId: string, id: string, at: string): Promise<boolean> {
    return this.transaction(async (client) => {
      await this.rows('lockPromotion', [id, accountId], client);
      const gone = await this.one<{ n: number }>('deleteSnapshot', [id, accountId, at], client);
      return (gone?.n ?? 0) > 0;
    });
  }
}
