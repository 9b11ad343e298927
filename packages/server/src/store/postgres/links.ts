import type pg from 'pg';
import { inTransaction } from './queries.js';
import type { Edge } from '../../model.js';
import { canonicalPair } from '../brain-rows.js';
import type { LinkNeighbourhood, LinkStore, WorkKind, WorkQueue, WorkTask } from '../link-store.js';

const SQL = {
  linksLinked: `SELECT target_id AS other FROM edges WHERE source_id = $1 UNION SELECT source_id FROM edges WHERE target_id = $1`,
  linksTombstoned: `SELECT target_id AS other_id, edge_type FROM edge_tombstones WHERE source_id = $1
    UNION ALL SELECT source_id, edge_type FROM edge_tombstones WHERE target_id = $1`,
  // $1 account … $10 updated_at, $11/$12 the canonical pair for the tombstone check.
  linksInsertAuto: `INSERT INTO edges (account_id, id, brain_id, source_id, target_id, edge_type, strength, label, origin, created_at, updated_at)
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, 'auto', $9, $10
    WHERE NOT EXISTS (SELECT 1 FROM edges WHERE (source_id = $4 AND target_id = $5) OR (source_id = $5 AND target_id = $4))
      AND NOT EXISTS (SELECT 1 FROM edge_tombstones WHERE source_id = $11 AND target_id = $12 AND edge_type = $6)
    ON CONFLICT DO NOTHING`,
  workQueueLinks: `INSERT INTO background_work (kind, subject_id, brain_id, run_after)
    SELECT 'auto_link', id, $1, now() + make_interval(secs => $3::double precision / 1000) FROM unnest($2::text[]) AS id
    ON CONFLICT (kind, subject_id) DO NOTHING`,
  // Rows another instance holds are skipped, not waited for: each task runs once at a time.
  workClaim: `UPDATE background_work SET leased_until = now() + make_interval(secs => $3::double precision / 1000)
    WHERE id IN (SELECT id FROM background_work
                 WHERE run_after <= now() AND (leased_until IS NULL OR leased_until < now()) AND kind = ANY($1::text[])
                 ORDER BY run_after, id LIMIT $2 FOR UPDATE SKIP LOCKED)
    RETURNING id::int, kind, subject_id, brain_id, version, attempts`,
  workFinish: `DELETE FROM background_work WHERE id = $1 AND version = $2`,
  workRelease: `UPDATE background_work SET leased_until = NULL WHERE id = $1`,
  workRetry: `UPDATE background_work SET attempts = attempts + 1, last_error = $3, leased_until = NULL,
    run_after = now() + make_interval(secs => $4::double precision / 1000) WHERE id = $1 AND version = $2`,
  workPending: `SELECT count(*)::int AS n FROM background_work WHERE kind = $1`,
  workFlagOn: `INSERT INTO service_flags (name) VALUES ($1) ON CONFLICT DO NOTHING`,
  workFlagOff: `DELETE FROM service_flags WHERE name = $1`,
} as const;

/** Automatic linking and the background queue on PostgreSQL. */
export class PostgresLinkStore implements LinkStore, WorkQueue {
  constructor(private readonly pool: pg.Pool) {}

  private query<R extends pg.QueryResultRow>(
    name: keyof typeof SQL,
    values: unknown[],
    db: pg.Pool | pg.PoolClient = this.pool,
  ) {
    return db.query<R>({ name, text: SQL[name], values });
  }

  async neighbourhood(snapshotId: string): Promise<LinkNeighbourhood> {
    const [linked, tombstoned] = await Promise.all([
      this.query<{ other: string }>('linksLinked', [snapshotId]),
      this.query<LinkNeighbourhood['tombstoned'][number]>('linksTombstoned', [snapshotId]),
    ]);
    return { linked: linked.rows.map((row) => row.other), tombstoned: tombstoned.rows };
  }

  async insertAutoEdges(accountId: string, edges: Edge[]): Promise<Edge[]> {
    if (edges.length === 0) return [];
    return inTransaction(this.pool, async (client) => {
      const inserted: Edge[] = [];
      for (const e of edges) {
        const [pairSource, pairTarget] = canonicalPair(e);
        const values = [accountId, e.id, e.brain_id, e.source_id, e.target_id, e.edge_type, e.strength, e.label];
        const result = await this.query(
          'linksInsertAuto',
          [...values, e.created_at, e.updated_at, pairSource, pairTarget],
          client,
        );
        if ((result.rowCount ?? 0) > 0) inserted.push(e);
      }
      return inserted;
    });
  }

  async queueLinking(brainId: string, snapshotIds: string[], delayMs: number): Promise<void> {
    await this.query('workQueueLinks', [brainId, snapshotIds, delayMs]);
  }

  async claim(kinds: WorkKind[], limit: number, leaseMs: number): Promise<WorkTask[]> {
    return (await this.query<WorkTask>('workClaim', [kinds, limit, leaseMs])).rows;
  }

  async finish(task: WorkTask): Promise<void> {
    const done = await this.query('workFinish', [task.id, task.version]);
    if ((done.rowCount ?? 0) === 0) await this.query('workRelease', [task.id]);
  }

  async retry(task: WorkTask, error: string, delayMs: number): Promise<void> {
    const updated = await this.query('workRetry', [task.id, task.version, error.slice(0, 1000), delayMs]);
    if ((updated.rowCount ?? 0) === 0) await this.query('workRelease', [task.id]);
  }

  async pending(kind: WorkKind): Promise<number> {
    return (await this.query<{ n: number }>('workPending', [kind])).rows[0]?.n ?? 0;
  }

  async setFlag(name: string, on: boolean): Promise<void> {
    await this.query(on ? 'workFlagOn' : 'workFlagOff', [name]);
  }
}
