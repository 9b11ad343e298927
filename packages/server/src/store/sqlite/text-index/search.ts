import type { ParsedQuery, SearchScope, TextMatches } from '../../search-store.js';
import type { SqliteDatabase } from '../open-database.js';
import { lazyStatements } from '../lazy-statement.js';
import { byRelevance, type Ranked, type TextIndex } from '../text-search.js';
import type { LiveTextIndex } from './index.js';
import type { InMemoryIndex } from './text-index.js';

/** A row of snapshot_search_rows (`r`) in the brain and, when asked, the type. */
const ROW_IN_SCOPE = '+r.brain_id = @brain AND (@type IS NULL OR r.type = @type)';

/** A query the in-memory index can answer: the index, the query's terms (FTS5's), and the scope. */
interface IndexedQuery {
  index: InMemoryIndex;
  terms: string[];
  scope: SearchScope;
}

/**
 * Text search by the in-memory index (LiveTextIndex): exactly FTS5's ranking, without scoring
 * through FTS5's auxiliary function. It answers queries of plain words without a tag filter,
 * while the index is built and caught up; anything else it declines (undefined), and FTS5
 * answers.
 */
export class InMemoryTextSearch implements TextIndex {
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly live: LiveTextIndex,
  ) {
    const prepared = lazyStatements(db);
    this.stmt = {
      rankedRows: prepared<[number, string, string]>(
        `SELECT r.rowid, r.snapshot_id, s.created_at FROM snapshot_search_rows r JOIN snapshots s ON s.id = r.snapshot_id
         WHERE r.rowid IN (SELECT value FROM json_each(@keys)) AND ${ROW_IN_SCOPE}`,
      ),
      searchRowids: prepared<[string, number]>(
        `SELECT snapshot_id, rowid FROM snapshot_search_rows r
         WHERE snapshot_id IN (SELECT value FROM json_each(@keys)) AND ${ROW_IN_SCOPE}`,
      ),
    };
  }

  textMatches(scope: SearchScope, query: ParsedQuery, limit: number): TextMatches | undefined {
    const indexed = this.indexedQuery(scope, query);
    if (indexed === undefined) return undefined;
    const { read, count } = this.rankInIndex(indexed, limit);
    const hits = byRelevance(read)
      .slice(0, limit)
      .map(([id, relevance, created_at]) => ({ id, relevance, created_at }));
    const known = new Set(hits.map((hit) => hit.id));
    return {
      hits,
      total: count,
      matching: async (ids) => {
        const found = new Set(ids.filter((id) => known.has(id)));
        const unknown = ids.filter((id) => !known.has(id));
        if (unknown.length === 0) return found;
        // Asked after other awaits: the index is caught up again (the one ranked with if that cannot be done).
        const index = this.live.current() ?? indexed.index;
        const numbers = index.scopeOf(indexed.scope.brainId, indexed.scope.type);
        if (numbers === undefined) return found;
        const rows = this.stmt.searchRowids().raw().all(this.rowsInScope(indexed.scope, unknown));
        for (const [id, rowid] of rows) if (index.matches(indexed.terms, numbers, index.docOf(rowid))) found.add(id);
        return found;
      },
    };
  }

  bestMatchIds(brainId: string, query: ParsedQuery, limit: number): string[] | undefined {
    const indexed = this.indexedQuery({ brainId }, query);
    if (indexed === undefined) return undefined;
    return byRelevance(this.rankInIndex(indexed, limit).read)
      .slice(0, limit)
      .map(([id]) => id);
  }

  /** The in-memory index and the query's terms, when the index can answer the query. */
  private indexedQuery(scope: SearchScope, query: ParsedQuery): IndexedQuery | undefined {
    const plainWords = query.terms.length > 0 && query.prefixes.length === 0 && query.phrases.length === 0;
    if (!plainWords || scope.tag !== undefined) return undefined;
    const terms: string[] = [];
    for (const word of query.terms) {
      const term = this.live.termOf(word);
      if (term === undefined) return undefined; // a word FTS5 reads as a phrase of several
      terms.push(term);
    }
    const index = this.live.current();
    return index && { index, terms, scope };
  }

  /** The `limit` best matches in scope by the index, with every tie of the last, and the count. */
  private rankInIndex({ index, terms, scope }: IndexedQuery, limit: number): { read: Ranked[]; count: number } {
    const numbers = index.scopeOf(scope.brainId, scope.type);
    if (numbers === undefined) return { read: [], count: 0 };
    const ranking = index.rank(terms, numbers, limit);
    return { read: this.rankedRows(index, scope, ranking.docs, ranking.scores), count: ranking.count };
  }

  /**
   * Ranked documents as rows (id, relevance, creation time). Rows are checked against the scope
   * again, and one deleted meanwhile is left out: a row number freed by a delete in another
   * process may already be another brain's.
   */
  private rankedRows(index: InMemoryIndex, scope: SearchScope, docs: number[], scores: number[]): Ranked[] {
    if (docs.length === 0) return [];
    const scoreOf = new Map(docs.map((doc, i) => [index.rowidOf(doc), scores[i] as number]));
    const rows = this.stmt
      .rankedRows()
      .raw()
      .all(this.rowsInScope(scope, [...scoreOf.keys()]));
    return rows.map(([rowid, id, createdAt]) => [id, scoreOf.get(rowid) as number, createdAt]);
  }

  private rowsInScope(scope: SearchScope, keys: (string | number)[]) {
    return { keys: JSON.stringify(keys), brain: scope.brainId, type: scope.type ?? null };
  }
}
