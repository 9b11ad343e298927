import type {
  Contradiction,
  FoundSnapshot,
  GraphEdge,
  ParsedQuery,
  SearchScope,
  SearchStore,
  TextHit,
} from '../search-store.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { snapshotJson } from './snapshot-json.js';

/**
 * BM25 field weights, in the index's column order (search-index-sql.ts): brain and kind are
 * filters and weigh nothing; a word in the name or a tag counts 3× and 2× one in the core, and
 * a word in a narrative field half. Tuned on ../shared/search-eval (docs/ranking.md).
 */
export const SQLITE_FIELD_WEIGHTS = { name: 3, tags: 2, core: 1, body: 0.5 } as const;
const W = SQLITE_FIELD_WEIGHTS;
const BM25 = `bm25(snapshot_search, 0, 0, ${W.name}, ${W.tags}, ${W.core}, ${W.body})`;

const HAS_TAG = `(@tag IS NULL OR EXISTS (SELECT 1 FROM json_each(s.tags) WHERE value = @tag))`;
const IDS = `(SELECT value FROM json_each(@ids))`;

/** The FTS5 token of a brain, as the index stores it (search-index-sql.ts). */
const brainToken = (brainId: string) => `${brainId.replaceAll('_', '')}0`;
const quoted = (words: string[]) => `"${words.join(' ')}"`;

/**
 * The FTS5 expression of a query in scope, or undefined when nothing can match. Every word is
 * quoted (letters and digits only, from parseQuery), so user text is never FTS5 syntax.
 */
export function ftsExpression(scope: SearchScope, query: ParsedQuery): string | undefined {
  const parts = [
    ...query.terms.map((t) => quoted([t])),
    ...query.prefixes.map((p) => `${quoted([p])}*`),
    ...query.phrases.map(quoted),
  ];
  if (parts.length === 0) return undefined;
  let expression = `brain : ${quoted([brainToken(scope.brainId)])}`;
  if (scope.type !== undefined) expression += ` AND kind : ${quoted([`k${scope.type}0`])}`;
  if (scope.tag !== undefined) {
    // A pre-filter on the tag's words; the exact tag is checked on the row (HAS_TAG).
    const words = scope.tag.toLowerCase().match(/[\p{L}\p{N}]+/gu);
    if (!words) return undefined;
    expression += ` AND tags : ${quoted(words)}`;
  }
  return `${expression} AND {name tags core body} : (${parts.join(' OR ')})`;
}

/** Search on SQLite: FTS5 with BM25 for text, plain indexed reads for the rest. */
export class SqliteSearchStore implements SearchStore {
  private readonly stmt;

  constructor(private readonly db: SqliteDatabase) {
    const prepared = lazyStatements(db);
    this.stmt = {
      // FTS5 sorts by rank itself and stops at the limit; rows are read only for the top ones.
      topMatches: prepared<TextHit>(
        `SELECT r.snapshot_id AS id, -m.rank AS relevance, s.created_at
         FROM (SELECT rowid, rank FROM snapshot_search WHERE snapshot_search MATCH @match
               AND rank MATCH '${BM25.replace('snapshot_search, ', '')}' ORDER BY rank LIMIT @limit) m
         JOIN snapshot_search_rows r ON r.rowid = m.rowid JOIN snapshots s ON s.id = r.snapshot_id
         ORDER BY m.rank, s.created_at DESC, s.id DESC`,
      ),
      countMatches: prepared<{ n: number }>(
        `SELECT count(*) AS n FROM snapshot_search WHERE snapshot_search MATCH @match`,
      ),
      topTaggedMatches: prepared<TextHit>(
        `SELECT r.snapshot_id AS id, -${BM25} AS relevance, s.created_at
         FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
         JOIN snapshots s ON s.id = r.snapshot_id
         WHERE snapshot_search MATCH @match AND ${HAS_TAG}
         ORDER BY relevance DESC, s.created_at DESC, s.id DESC LIMIT @limit`,
      ),
      countTaggedMatches: prepared<{ n: number }>(
        `SELECT count(*) AS n FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
         JOIN snapshots s ON s.id = r.snapshot_id WHERE snapshot_search MATCH @match AND ${HAS_TAG}`,
      ),
      relevanceOf: prepared<TextHit>(
        `SELECT r.snapshot_id AS id, -${BM25} AS relevance, s.created_at
         FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
         JOIN snapshots s ON s.id = r.snapshot_id
         WHERE snapshot_search MATCH @match
           AND snapshot_search.rowid IN (SELECT rowid FROM snapshot_search_rows WHERE snapshot_id IN ${IDS})
           AND ${HAS_TAG}`,
      ),
      edgesTouching: prepared<GraphEdge>(
        `SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE brain_id = @brain AND source_id IN ${IDS}
         UNION SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE brain_id = @brain AND target_id IN ${IDS}
         ORDER BY strength DESC, id LIMIT @limit`,
      ),
      snapshotsIn: prepared<FoundSnapshot>(
        `SELECT id, name, created_at, ${snapshotJson} AS json FROM snapshots s
         WHERE brain_id = @brain AND id IN ${IDS} AND (@type IS NULL OR type = @type) AND ${HAS_TAG}`,
      ),
      contradictionsOf: prepared<Contradiction>(
        `SELECT e.source_id AS subject_id, e.target_id AS snapshot_id, o.name, e.id AS edge_id, e.strength
         FROM edges e JOIN snapshots o ON o.id = e.target_id
         WHERE e.brain_id = @brain AND e.edge_type = 'contradicts' AND e.source_id IN ${IDS}
         UNION ALL
         SELECT e.target_id, e.source_id, o.name, e.id, e.strength
         FROM edges e JOIN snapshots o ON o.id = e.source_id
         WHERE e.brain_id = @brain AND e.edge_type = 'contradicts' AND e.target_id IN ${IDS}
         ORDER BY strength DESC, edge_id`,
      ),
    };
  }

  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number) {
    const match = ftsExpression(scope, query);
    if (match === undefined) return { hits: [], total: 0 };
    const tag = scope.tag ?? null;
    // The page and the count in one read transaction, so both describe the same state.
    return this.db.transaction(() => {
      if (tag === null) {
        return {
          hits: this.stmt.topMatches().all({ match, limit }),
          total: this.stmt.countMatches().get({ match })?.n ?? 0,
        };
      }
      return {
        hits: this.stmt.topTaggedMatches().all({ match, limit, tag }),
        total: this.stmt.countTaggedMatches().get({ match, tag })?.n ?? 0,
      };
    })();
  }

  async relevanceOf(scope: SearchScope, query: ParsedQuery, ids: string[]) {
    const match = ftsExpression(scope, query);
    if (match === undefined || ids.length === 0) return [];
    return this.stmt.relevanceOf().all({ match, ids: JSON.stringify(ids), tag: scope.tag ?? null });
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
