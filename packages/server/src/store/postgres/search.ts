import type pg from 'pg';
import type {
  Contradiction,
  FoundSnapshot,
  GraphEdge,
  ParsedQuery,
  SearchScope,
  SearchStore,
  TextHit,
} from '../search-store.js';
import { snapshotJson } from './snapshot-json.js';

/**
 * ts_rank's weights for the tsvector's labels {D, C, B, A}: name and tags (A) count 2.5× the
 * core (B), the narrative fields (C) half the core. Normalization 1 divides by 1 + log(length),
 * so long texts do not win by length alone (docs/ranking.md).
 */
export const POSTGRES_LABEL_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
const RELEVANCE = `ts_rank('${POSTGRES_LABEL_WEIGHTS}', search_vector, q.query, 1)`;

/** to_tsquery text of a query: its words are letters and digits only (parseQuery). */
export function tsqueryText(query: ParsedQuery): string | undefined {
  const parts = [
    ...query.terms,
    ...query.prefixes.map((p) => `${p}:*`),
    ...query.phrases.map((words) => `(${words.join(' <-> ')})`),
  ];
  return parts.length === 0 ? undefined : parts.join(' | ');
}

// $1 brain, $2 tsquery text, $3 type or null, $4 tag or null.
const IN_SCOPE = `s.brain_id = $1 AND s.search_vector @@ q.query AND ($3::text IS NULL OR s.type = $3)
  AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(s.tags) t WHERE t = $4))`;
const QUERY = `(SELECT to_tsquery('english', $2) AS query) q`;

const SQL = {
  searchTop: `SELECT s.id, ${RELEVANCE} AS relevance, s.created_at FROM snapshots s, ${QUERY}
    WHERE ${IN_SCOPE} ORDER BY relevance DESC, s.created_at DESC, s.id DESC LIMIT $5`,
  searchCount: `SELECT count(*)::int AS n FROM snapshots s, ${QUERY} WHERE ${IN_SCOPE}`,
  searchRelevanceOf: `SELECT s.id, ${RELEVANCE} AS relevance, s.created_at FROM snapshots s, ${QUERY}
    WHERE ${IN_SCOPE} AND s.id = ANY($5::text[])`,
  searchEdgesTouching: `SELECT id, source_id, target_id, edge_type, strength FROM edges
    WHERE brain_id = $1 AND (source_id = ANY($2::text[]) OR target_id = ANY($2::text[]))
    ORDER BY strength DESC, id LIMIT $3`,
  searchSnapshotsIn: `SELECT s.id, s.name, s.created_at, ${snapshotJson} AS json FROM snapshots s
    WHERE s.brain_id = $1 AND s.id = ANY($2::text[]) AND ($3::text IS NULL OR s.type = $3)
      AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(s.tags) t WHERE t = $4))`,
  searchContradictionsOf: `SELECT e.source_id AS subject_id, e.target_id AS snapshot_id, o.name, e.id AS edge_id, e.strength
    FROM edges e JOIN snapshots o ON o.id = e.target_id
    WHERE e.brain_id = $1 AND e.edge_type = 'contradicts' AND e.source_id = ANY($2::text[])
    UNION ALL
    SELECT e.target_id, e.source_id, o.name, e.id, e.strength
    FROM edges e JOIN snapshots o ON o.id = e.source_id
    WHERE e.brain_id = $1 AND e.edge_type = 'contradicts' AND e.target_id = ANY($2::text[])
    ORDER BY strength DESC, edge_id`,
} as const;

/** Search on PostgreSQL: weighted tsvectors under a GIN index, ranked by ts_rank. */
export class PostgresSearchStore implements SearchStore {
  constructor(private readonly pool: pg.Pool) {}

  private async rows<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>({ name, text: SQL[name], values })).rows;
  }

  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number) {
    const text = tsqueryText(query);
    if (text === undefined) return { hits: [], total: 0 };
    const values = [scope.brainId, text, scope.type ?? null, scope.tag ?? null];
    const [hits, count] = await Promise.all([
      this.rows<TextHit>('searchTop', [...values, limit]),
      this.rows<{ n: number }>('searchCount', values),
    ]);
    return { hits, total: count[0]?.n ?? 0 };
  }

  async relevanceOf(scope: SearchScope, query: ParsedQuery, ids: string[]) {
    const text = tsqueryText(query);
    if (text === undefined || ids.length === 0) return [];
    return this.rows<TextHit>('searchRelevanceOf', [scope.brainId, text, scope.type ?? null, scope.tag ?? null, ids]);
  }

  async edgesTouching(brainId: string, ids: string[], limit: number) {
    if (ids.length === 0) return [];
    return this.rows<GraphEdge>('searchEdgesTouching', [brainId, ids, limit]);
  }

  async snapshotsIn(scope: SearchScope, ids: string[]) {
    if (ids.length === 0) return [];
    return this.rows<FoundSnapshot>('searchSnapshotsIn', [scope.brainId, ids, scope.type ?? null, scope.tag ?? null]);
  }

  async contradictionsOf(brainId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return this.rows<Contradiction>('searchContradictionsOf', [brainId, ids]);
  }
}
