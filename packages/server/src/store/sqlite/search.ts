import type {
  TextMatches,
  Contradiction,
  FoundSnapshot,
  GraphEdge,
  ParsedQuery,
  SearchScope,
  SearchStore,
} from '../search-store.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { snapshotJson } from './snapshot-json.js';

/**
 * BM25 field weights, in the index's column order (search-index-sql.ts): a word in the name or a
 * tag counts 3× and 2× one in the core, and a word in a narrative field half. Tuned on
 * ../shared/search-eval (docs/ranking.md).
 */
export const SQLITE_FIELD_WEIGHTS = { name: 3, tags: 2, core: 1, body: 0.5 } as const;
const W = SQLITE_FIELD_WEIGHTS;
const BM25 = `bm25(snapshot_search, ${W.name}, ${W.tags}, ${W.core}, ${W.body})`;

const IDS = `(SELECT value FROM json_each(@ids))`;
const HAS_TAG = (snapshotId: string) =>
  `(@tag IS NULL OR EXISTS (SELECT 1 FROM snapshots t, json_each(t.tags) WHERE t.id = ${snapshotId} AND json_each.value = @tag))`;
/** A match's row in scope: its brain and type are in the row map, looked up by rowid per match. */
const IN_SCOPE = `r.brain_id = @brain AND (@type IS NULL OR r.type = @type) AND ${HAS_TAG('r.snapshot_id')}`;
const quoted = (words: string[]) => `"${words.join(' ')}"`;

/**
 * The FTS5 expression of a query, or undefined when nothing can match. Every word is quoted
 * (letters and digits only, from parseQuery), so user text is never FTS5 syntax.
 */
export function ftsExpression(scope: SearchScope, query: ParsedQuery): string | undefined {
  const parts = [
    ...query.terms.map((t) => quoted([t])),
    ...query.prefixes.map((p) => `${quoted([p])}*`),
    ...query.phrases.map(quoted),
  ];
  if (parts.length === 0) return undefined;
  const words = `(${parts.join(' OR ')})`;
  if (scope.tag === undefined) return words;
  // A pre-filter on the tag's words; the exact tag is checked on the row (HAS_TAG).
  const tagWords = scope.tag.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return tagWords ? `tags : ${quoted(tagWords)} AND ${words}` : undefined;
}

/** Search on SQLite: FTS5 with BM25 for text, plain indexed reads for the rest. */
export class SqliteSearchStore implements SearchStore {
  private readonly stmt;

  constructor(private readonly db: SqliteDatabase) {
    const prepared = lazyStatements(db);
    // `+brain_id`: a brain's index would read the whole brain; the ids are looked up instead.
    this.stmt = {
      // Every match in scope with its relevance, in one pass over the index: the count, the best
      // and the deeper matches all come from it (a count and a ranked top-k were two passes).
      allMatches: prepared<[string, number]>(
        `SELECT r.snapshot_id, -${BM25}
         FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
         WHERE snapshot_search MATCH @match AND ${IN_SCOPE}`,
      ),
      createdAt: prepared<{ id: string; created_at: string }>(
        `SELECT id, created_at FROM snapshots WHERE id IN ${IDS}`,
      ),
      edgesTouching: prepared<GraphEdge>(
        `SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE source_id IN ${IDS} AND +brain_id = @brain
         UNION SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE target_id IN ${IDS} AND +brain_id = @brain
         ORDER BY strength DESC, id LIMIT @limit`,
      ),
      snapshotsIn: prepared<FoundSnapshot>(
        `SELECT id, name, created_at, ${snapshotJson} AS json FROM snapshots
         WHERE id IN ${IDS} AND +brain_id = @brain AND (@type IS NULL OR type = @type) AND ${HAS_TAG('snapshots.id')}`,
      ),
      contradictionsOf: prepared<Contradiction>(
        `SELECT e.source_id AS subject_id, e.target_id AS snapshot_id, o.name, e.id AS edge_id, e.strength
         FROM edges e JOIN snapshots o ON o.id = e.target_id
         WHERE e.source_id IN ${IDS} AND +e.brain_id = @brain AND +e.edge_type = 'contradicts'
         UNION ALL
         SELECT e.target_id, e.source_id, o.name, e.id, e.strength
         FROM edges e JOIN snapshots o ON o.id = e.source_id
         WHERE e.target_id IN ${IDS} AND +e.brain_id = @brain AND +e.edge_type = 'contradicts'
         ORDER BY strength DESC, edge_id`,
      ),
    };
  }

  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number): Promise<TextMatches> {
    const match = ftsExpression(scope, query);
    if (match === undefined) return { hits: [], total: 0, matches: new Set() };
    const params = { match, brain: scope.brainId, type: scope.type ?? null, tag: scope.tag ?? null };
    return this.db.transaction(() => {
      const all = this.stmt.allMatches().raw().all(params) as [string, number][];
      const best = topByRelevance(all, limit);
      const created = new Map(
        this.stmt
          .createdAt()
          .all({ ids: JSON.stringify(best.map(([id]) => id)) })
          .map((row) => [row.id, row.created_at]),
      );
      const hits = best.map(([id, relevance]) => ({ id, relevance, created_at: created.get(id) as string }));
      hits.sort(
        (a, b) => b.relevance - a.relevance || compareDesc(a.created_at, b.created_at) || compareDesc(a.id, b.id),
      );
      return { hits: hits.slice(0, limit), total: all.length, matches: new Set(all.map(([id]) => id)) };
    })();
  }

  async edgesTouching(brainId: string, ids: string[], limit: number) {
    if (ids.length === 0) return [];
    return this.stmt.edgesTouching().all({ brain: brainId, ids: JSON.stringify(ids), limit });
  }

  async snapshotsIn(scope: SearchScope, ids: string[]) {
    if (ids.length === 0) return [];
    return this.stmt.snapshotsIn().all({
      brain: scope.brainId,
      ids: JSON.stringify(ids),
      type: scope.type ?? null,
      tag: scope.tag ?? null,
    });
  }

  async contradictionsOf(brainId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return this.stmt.contradictionsOf().all({ brain: brainId, ids: JSON.stringify(ids) });
  }
}

/**
 * The `limit` rows of highest relevance, with every row tied with the last of them (so ties can
 * be broken by age afterwards), without sorting all of them.
 */
function topByRelevance(rows: [string, number][], limit: number): [string, number][] {
  if (rows.length <= limit) return rows;
  const sorted = rows.map((row) => row[1]).sort((a, b) => b - a);
  const floor = sorted[limit - 1] as number;
  return rows.filter((row) => row[1] >= floor);
}

const compareDesc = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);
