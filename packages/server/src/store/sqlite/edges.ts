import type { Edge, JsonRow, PageOf } from '../../model.js';
import { EDGE_CONFLICT, type EdgeQuery, type EdgeStore } from '../edge-store.js';
import { EDGE_COLUMNS } from '../columns.js';
import { edgeJsonArguments } from '../json-columns.js';
import { canonicalPair } from '../brain-rows.js';
import { ReadCache } from '../read-cache.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { cacheSync, COUNT_OF_KIND, NEWEST_FIRST as newestFirst, preparers, type Prepare } from './prepared.js';
import { translateSqliteError } from './sqlite-errors.js';

const edgeColumns = EDGE_COLUMNS.join(', ');
const edgeJsonRow = `created_at, id, json_object(${edgeJsonArguments((c) => c)}) AS json`;
/** Characters of JSON kept for edge pages (graph rendering reads the same pages over and over). */
const EDGE_PAGE_CACHE_CHARS = 16 * 1024 * 1024;

/** Edges and their tombstones on SQLite, with pages kept until the next write. */
export class SqliteEdgeStore implements EdgeStore {
  private readonly stmt;
  private readonly pages = new ReadCache<PageOf<JsonRow>>(EDGE_PAGE_CACHE_CHARS, weighPage);
  private readonly syncCache: <V>(cache: ReadCache<V>) => void;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    this.syncCache = cacheSync(db, writes);
    const { prepared } = preparers(db);
    this.stmt = {
      hasBrain: prepared<[string, string], { id: string }>('SELECT id FROM brains WHERE id = ? AND account_id = ?'),
      hasSnapshot: prepared<[string, string], { id: string }>(
        'SELECT id FROM snapshots WHERE id = ? AND account_id = ?',
      ),
      countOfKind: prepared<[string, string], { n: number }>(COUNT_OF_KIND),
      insertEdge: prepared<Edge & { account_id: string }, never>(
        `INSERT INTO edges (account_id, ${edgeColumns})
         VALUES (@account_id, ${EDGE_COLUMNS.map((c) => `@${c}`).join(', ')})`,
      ),
      getEdge: prepared<[string, string], Edge>(`SELECT ${edgeColumns} FROM edges WHERE id = ? AND account_id = ?`),
      updateEdge: prepared<Edge & { account_id: string }, never>(
        `UPDATE edges SET edge_type = @edge_type, strength = @strength, label = @label, origin = @origin,
         updated_at = @updated_at WHERE id = @id AND account_id = @account_id`,
      ),
      insertTombstone: prepared<[string, string, string, string, string], never>(
        `INSERT INTO edge_tombstones (source_id, target_id, edge_type, brain_id, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      ),
      deleteEdge: prepared<[string, string], never>('DELETE FROM edges WHERE id = ? AND account_id = ?'),
      ...prepareEdgeLists(prepared),
    };
  }

  insert(accountId: string, edge: Edge): Promise<void> {
    const row = { ...edge, account_id: accountId };
    return this.writes.run(() => {
      try {
        this.stmt.insertEdge().run(row);
      } catch (err) {
        throw translateSqliteError(err, { conflict: EDGE_CONFLICT, missing: 'snapshot' });
      }
    });
  }

  async get(accountId: string, id: string): Promise<Edge | undefined> {
    return this.stmt.getEdge().get(id, accountId);
  }

  /**
   * Edge pages are what a graph view asks for again and again while nothing changes, so they
   * are cached until the next write (see ReadCache).
   */
  async list(q: EdgeQuery): Promise<PageOf<JsonRow> | undefined> {
    this.syncCache(this.pages);
    const key = edgePageKey(q);
    let page = this.pages.get(key);
    if (page === undefined) {
      page = this.readEdgePage(q);
      // Only pages are kept, as with keys: guessed scopes cannot fill the cache.
      if (page !== undefined) this.pages.set(key, page);
    }
    return page;
  }

  /** The scope's check and its page in one read transaction: a kept page vouches for both. */
  private readEdgePage(q: EdgeQuery): PageOf<JsonRow> | undefined {
    const bySnapshot = 'snapshotId' in q.scope;
    const params = {
      account: q.accountId,
      scope: 'snapshotId' in q.scope ? q.scope.snapshotId : q.scope.brainId,
      type: q.edgeType ?? null,
      min: q.minStrength,
      limit: q.limit,
      offset: q.offset,
      after_at: q.after?.created_at ?? null,
      after_id: q.after?.id ?? null,
    };
    const list = q.after
      ? bySnapshot
        ? this.stmt.listEdgesOfSnapshotAfter()
        : this.stmt.listEdgesOfBrainAfter()
      : bySnapshot
        ? this.stmt.listEdgesOfSnapshot()
        : this.stmt.listEdgesOfBrain();
    return this.db.transaction(() => {
      const scopeExists = bySnapshot ? this.stmt.hasSnapshot() : this.stmt.hasBrain();
      if (scopeExists.get(params.scope, q.accountId) === undefined) return undefined;
      const rows = list.all(params);
      // A brain's edges, all or of one type, have a kept count; a strength filter must count.
      const total =
        !bySnapshot && q.minStrength === 0
          ? this.stmt.countOfKind().get(params.scope, q.edgeType ? `edges:${q.edgeType}` : 'edges')
          : (bySnapshot ? this.stmt.countEdgesOfSnapshot() : this.stmt.countEdgesOfBrain()).get(params);
      return { rows, total: total?.n ?? 0 };
    })();
  }

  update(accountId: string, id: string, change: (current: Edge) => Edge): Promise<Edge | undefined> {
    return this.writes.run(() => {
      const current = this.stmt.getEdge().get(id, accountId);
      if (!current) return undefined;
      const next = change(current);
      try {
        this.stmt.updateEdge().run({ ...next, account_id: accountId });
      } catch (err) {
        throw translateSqliteError(err, { conflict: EDGE_CONFLICT, missing: 'edge' });
      }
      return next;
    });
  }

  /** Deletes the edge and leaves its tombstone, so the service never makes it again. */
  delete(accountId: string, id: string, at: string): Promise<boolean> {
    return this.writes.run(() => {
      const edge = this.stmt.getEdge().get(id, accountId);
      if (!edge) return false;
      const [source, target] = canonicalPair(edge);
      this.stmt.insertTombstone().run(source, target, edge.edge_type, edge.brain_id, at);
      return this.stmt.deleteEdge().run(id, accountId).changes > 0;
    });
  }
}

function prepareEdgeLists(prepared: Prepare) {
  type Params = {
    account: string;
    scope: string;
    type: string | null;
    min: number;
    limit: number;
    offset: number;
    after_at: string | null;
    after_id: string | null;
  };
  const filters = 'AND (@type IS NULL OR edge_type = @type) AND strength >= @min';
  const afterCursor = 'AND (created_at, id) < (@after_at, @after_id)';
  // Edges of one snapshot: the outgoing and the incoming ones, each found through its own
  // index. A self-loop cannot exist, so the two halves never overlap.
  const halves = (select: string, extra: string) =>
    `SELECT ${select} FROM edges WHERE account_id = @account AND source_id = @scope ${filters} ${extra}
      UNION ALL SELECT ${select} FROM edges WHERE account_id = @account AND target_id = @scope ${filters} ${extra}`;
  const ofBrain = `SELECT ${edgeJsonRow} FROM edges WHERE account_id = @account AND brain_id = @scope ${filters}`;
  return {
    listEdgesOfSnapshot: prepared<Params, JsonRow>(
      `${halves(edgeJsonRow, '')} ${newestFirst} LIMIT @limit OFFSET @offset`,
    ),
    listEdgesOfSnapshotAfter: prepared<Params, JsonRow>(
      `${halves(edgeJsonRow, afterCursor)} ${newestFirst} LIMIT @limit`,
    ),
    listEdgesOfBrainAfter: prepared<Params, JsonRow>(`${ofBrain} ${afterCursor} ${newestFirst} LIMIT @limit`),
    countEdgesOfSnapshot: prepared<Params, { n: number }>(`SELECT count(*) AS n FROM (${halves('1', '')})`),
    listEdgesOfBrain: prepared<Params, JsonRow>(`${ofBrain} ${newestFirst} LIMIT @limit OFFSET @offset`),
    countEdgesOfBrain: prepared<Params, { n: number }>(
      `SELECT count(*) AS n FROM edges WHERE account_id = @account AND brain_id = @scope ${filters}`,
    ),
  };
}

/** Everything that selects an edge page, the account included. */
function edgePageKey(q: EdgeQuery): string {
  const scope = 'snapshotId' in q.scope ? `s:${q.scope.snapshotId}` : `b:${q.scope.brainId}`;
  const after = q.after ? `${q.after.created_at}/${q.after.id}` : '';
  return `${q.accountId} ${scope} ${q.edgeType ?? ''} ${q.minStrength} ${q.limit} ${q.offset} ${after}`;
}

const weighPage = (page: PageOf<JsonRow>): number => page.rows.reduce((sum, row) => sum + row.json.length, 64);
