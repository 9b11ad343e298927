import type { Edge } from '../../model.js';
import { canonicalPair } from '../brain-rows.js';
import type { LinkNeighbourhood, LinkStore, WorkKind, WorkQueue, WorkTask } from '../link-store.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';

const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

/** Automatic linking and the background queue on SQLite; every write through group commit. */
export class SqliteLinkStore implements LinkStore, WorkQueue {
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    const prepared = lazyStatements(db);
    this.stmt = {
      linked: prepared<{ other: string }>(
        `SELECT target_id AS other FROM edges WHERE source_id = @id UNION SELECT source_id FROM edges WHERE target_id = @id`,
      ),
      tombstoned: prepared<{ other_id: string; edge_type: string }>(
        `SELECT target_id AS other_id, edge_type FROM edge_tombstones WHERE source_id = @id
         UNION ALL SELECT source_id, edge_type FROM edge_tombstones WHERE target_id = @id`,
      ),
      insertAuto: prepared<never>(
        `INSERT INTO edges (account_id, id, brain_id, source_id, target_id, edge_type, strength, label, origin, created_at, updated_at)
         SELECT @account_id, @id, @brain_id, @source_id, @target_id, @edge_type, @strength, @label, 'auto', @created_at, @updated_at
         WHERE NOT EXISTS (SELECT 1 FROM edges WHERE (source_id = @source_id AND target_id = @target_id)
                                                  OR (source_id = @target_id AND target_id = @source_id))
           AND NOT EXISTS (SELECT 1 FROM edge_tombstones WHERE source_id = @pair_source AND target_id = @pair_target
                                                            AND edge_type = @edge_type)
         ON CONFLICT DO NOTHING`,
      ),
      queueLink: prepared<never>(
        `INSERT INTO background_work (kind, subject_id, brain_id, run_after)
         VALUES ('auto_link', @id, @brain_id, ${NOW_MS} + @delay) ON CONFLICT (kind, subject_id) DO NOTHING`,
      ),
      due: prepared<WorkTask>(
        `SELECT id, kind, subject_id, brain_id, version, attempts FROM background_work
         WHERE run_after <= ${NOW_MS} AND (leased_until IS NULL OR leased_until < ${NOW_MS})
           AND kind IN (SELECT value FROM json_each(@kinds))
         ORDER BY run_after, id LIMIT @limit`,
      ),
      lease: prepared<never>(`UPDATE background_work SET leased_until = ${NOW_MS} + @lease WHERE id = @id`),
      finish: prepared<never>(`DELETE FROM background_work WHERE id = @id AND version = @version`),
      release: prepared<never>(`UPDATE background_work SET leased_until = NULL WHERE id = @id`),
      retry: prepared<never>(
        `UPDATE background_work SET attempts = attempts + 1, last_error = @error, leased_until = NULL,
           run_after = ${NOW_MS} + @delay WHERE id = @id AND version = @version`,
      ),
      pending: prepared<{ n: number }>(`SELECT count(*) AS n FROM background_work WHERE kind = @kind`),
      flagOn: prepared<never>(`INSERT INTO service_flags (name) VALUES (@name) ON CONFLICT DO NOTHING`),
      flagOff: prepared<never>(`DELETE FROM service_flags WHERE name = @name`),
    };
  }

  async neighbourhood(snapshotId: string): Promise<LinkNeighbourhood> {
    return {
      linked: this.stmt
        .linked()
        .all({ id: snapshotId })
        .map((row) => row.other),
      tombstoned: this.stmt.tombstoned().all({ id: snapshotId }) as LinkNeighbourhood['tombstoned'],
    };
  }

  insertAutoEdges(accountId: string, edges: Edge[]): Promise<Edge[]> {
    return this.writes.run(() =>
      edges.filter((edge) => {
        const [pair_source, pair_target] = canonicalPair(edge);
        const row = { ...edge, account_id: accountId, pair_source, pair_target };
        return this.stmt.insertAuto().run(row).changes > 0;
      }),
    );
  }

  queueLinking(brainId: string, snapshotIds: string[], delayMs: number): Promise<void> {
    return this.writes.run(() => {
      for (const id of snapshotIds) this.stmt.queueLink().run({ id, brain_id: brainId, delay: delayMs });
    });
  }

  claim(kinds: WorkKind[], limit: number, leaseMs: number): Promise<WorkTask[]> {
    return this.writes.run(() => {
      const tasks = this.stmt.due().all({ kinds: JSON.stringify(kinds), limit });
      for (const task of tasks) this.stmt.lease().run({ id: task.id, lease: leaseMs });
      return tasks;
    });
  }

  finish(task: WorkTask): Promise<void> {
    return this.writes.run(() => {
      if (this.stmt.finish().run({ id: task.id, version: task.version }).changes === 0)
        this.stmt.release().run({ id: task.id });
    });
  }

  retry(task: WorkTask, error: string, delayMs: number): Promise<void> {
    return this.writes.run(() => {
      const row = { id: task.id, version: task.version, error: error.slice(0, 1000), delay: delayMs };
      if (this.stmt.retry().run(row).changes === 0) this.stmt.release().run({ id: task.id });
    });
  }

  async pending(kind: WorkKind): Promise<number> {
    return this.stmt.pending().get({ kind })?.n ?? 0;
  }

  setFlag(name: string, on: boolean): Promise<void> {
    return this.writes.run(() => void (on ? this.stmt.flagOn() : this.stmt.flagOff()).run({ name }));
  }
}
