import type pg from 'pg';
import type { Edge, JsonRow, PageOf } from '../../model.js';
import { EDGE_CONFLICT, type EdgeQuery, type EdgeStore } from '../edge-store.js';
import { EDGE_COLUMNS } from '../columns.js';
import { edgeJsonArguments } from '../json-columns.js';
import { canonicalPair } from '../brain-rows.js';
import { ISO_MS } from './snapshot-json.js';
import { translatePostgresError } from './pg-errors.js';
import { NamedQueries } from './queries.js';
import { BRAIN_SQL } from './brain-sql.js';

const edgeColumns = EDGE_COLUMNS.join(', ');
const newestFirst = 'ORDER BY created_at DESC, id DESC';
const edgeJsonRow = `created_at, id, json_build_object(${edgeJsonArguments((c) =>
  c === 'created_at' || c === 'updated_at' ? `to_char(${c} AT TIME ZONE 'UTC', '${ISO_MS}')` : c,
)})::text AS json`;

// Edges of one snapshot: outgoing and incoming, each through its own index (a self-loop
// cannot exist, so the halves never overlap). $1 account, $2 scope, $3 type or null, $4 min.
const edgeFilters = 'AND ($3::text IS NULL OR edge_type = $3) AND strength >= $4';
const edgeHalves = (
  select: string,
  extra: string,
) => `SELECT ${select} FROM edges WHERE account_id = $1 AND source_id = $2 ${edgeFilters} ${extra}
  UNION ALL SELECT ${select} FROM edges WHERE account_id = $1 AND target_id = $2 ${edgeFilters} ${extra}`;
// $5 limit, then the cursor position: $6 created_at, $7 id.
const afterCursor = 'AND (created_at, id) < ($6, $7)';

const SQL = {
  hasBrain: BRAIN_SQL.hasBrain,
  hasSnapshot: BRAIN_SQL.hasSnapshot,
  insertEdge: `INSERT INTO edges (account_id, ${edgeColumns}) VALUES ($1, ${EDGE_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')})`,
  getEdge: `SELECT ${edgeColumns} FROM edges WHERE id = $1 AND account_id = $2`,
  getEdgeForUpdate: `SELECT ${edgeColumns} FROM edges WHERE id = $1 AND account_id = $2 FOR UPDATE`,
  updateEdge: `UPDATE edges SET edge_type = $3, strength = $4, label = $5, origin = $6, updated_at = $7
    WHERE id = $1 AND account_id = $2`,
  insertTombstone: `INSERT INTO edge_tombstones (source_id, target_id, edge_type, brain_id, created_at)
    VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
  deleteEdge: 'DELETE FROM edges WHERE id = $1 AND account_id = $2',
  listEdgesOfSnapshotAfter: `${edgeHalves(edgeJsonRow, afterCursor)} ${newestFirst} LIMIT $5`,
  listEdgesOfBrainAfter: `SELECT ${edgeJsonRow} FROM edges WHERE account_id = $1 AND brain_id = $2 ${edgeFilters} ${afterCursor} ${newestFirst} LIMIT $5`,
  listEdgesOfSnapshot: `${edgeHalves(edgeJsonRow, '')} ${newestFirst} LIMIT $5 OFFSET $6`,
  countEdgesOfSnapshot: `SELECT count(*)::int AS n FROM (${edgeHalves('1', '')}) AS e`,
  listEdgesOfBrain: `SELECT ${edgeJsonRow} FROM edges WHERE account_id = $1 AND brain_id = $2 ${edgeFilters} ${newestFirst} LIMIT $5 OFFSET $6`,
  countEdgesOfBrain: `SELECT count(*)::int AS n FROM edges WHERE account_id = $1 AND brain_id = $2 ${edgeFilters}`,
} as const;

/** Edges and their tombstones on PostgreSQL. */
export class PostgresEdgeStore extends NamedQueries<keyof typeof SQL> implements EdgeStore {
  constructor(pool: pg.Pool) {
    super(pool, SQL);
  }

  async insert(accountId: string, edge: Edge): Promise<void> {
    try {
      await this.run('insertEdge', [accountId, ...EDGE_COLUMNS.map((column) => edge[column])]);
    } catch (err) {
      throw translatePostgresError(err, { conflict: EDGE_CONFLICT, missing: 'snapshot' });
    }
  }

  get(accountId: string, id: string): Promise<Edge | undefined> {
    return this.one<Edge>('getEdge', [id, accountId]);
  }

  /** The scope's check, the page and the count at once: one round trip's wait, not two. */
  async list(q: EdgeQuery): Promise<PageOf<JsonRow> | undefined> {
    const bySnapshot = 'snapshotId' in q.scope;
    const scope = 'snapshotId' in q.scope ? q.scope.snapshotId : q.scope.brainId;
    const filters = [q.accountId, scope, q.edgeType ?? null, q.minStrength];
    const page = q.after
      ? this.rows<JsonRow>(bySnapshot ? 'listEdgesOfSnapshotAfter' : 'listEdgesOfBrainAfter', [
          ...filters,
          q.limit,
          q.after.created_at,
          q.after.id,
        ])
      : this.rows<JsonRow>(bySnapshot ? 'listEdgesOfSnapshot' : 'listEdgesOfBrain', [...filters, q.limit, q.offset]);
    const [exists, rows, total] = await Promise.all([
      this.one(bySnapshot ? 'hasSnapshot' : 'hasBrain', [scope, q.accountId]),
      page,
      this.count(bySnapshot ? 'countEdgesOfSnapshot' : 'countEdgesOfBrain', filters),
    ]);
    return exists === undefined ? undefined : { rows, total };
  }

  async update(accountId: string, id: string, change: (current: Edge) => Edge): Promise<Edge | undefined> {
    try {
      return await this.transaction(async (client) => {
        const current = await this.one<Edge>('getEdgeForUpdate', [id, accountId], client);
        if (!current) return undefined;
        const next = change(current);
        await this.run(
          'updateEdge',
          [id, accountId, next.edge_type, next.strength, next.label, next.origin, next.updated_at],
          client,
        );
        return next;
      });
    } catch (err) {
      throw translatePostgresError(err, { conflict: EDGE_CONFLICT, missing: 'edge' });
    }
  }

  /** Deletes the edge and leaves its tombstone, so the service never makes it again. */
  delete(accountId: string, id: string, at: string): Promise<boolean> {
    return this.transaction(async (client) => {
      const edge = await this.one<Edge>('getEdgeForUpdate', [id, accountId], client);
      if (!edge) return false;
      const [source, target] = canonicalPair(edge);
      await this.run('insertTombstone', [source, target, edge.edge_type, edge.brain_id, at], client);
      return (await this.run('deleteEdge', [id, accountId], client)) > 0;
    });
  }
}
