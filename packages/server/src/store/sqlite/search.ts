import type {
  TextMatches,
  Contradiction,
  Evolution,
  FoundSnapshot,
  GraphEdge,
  ScopedSnapshot,
  ParsedQuery,
  SearchScope,
  SearchStore,
} from '../search-store.js';
import type { SqliteDatabase } from './open-database.js';
import { stemmer } from 'stemmer';
import { prefixStemsFor } from '../prefix-stems.js';
import { lazyStatements } from './lazy-statement.js';
import { snapshotJson } from './snapshot-json.js';
import { LiveTextIndex, SQLITE_FIELD_WEIGHTS, type TextIndex } from './text-index/index.js';
import type { TextIndexEvent } from '../search-store.js';

export { SQLITE_FIELD_WEIGHTS };

const W = SQLITE_FIELD_WEIGHTS;
const BM25 = `bm25(snapshot_search, ${W.name}, ${W.tags}, ${W.core}, ${W.body})`;
/** The same, as FTS5's rank function, so that FTS5 orders by it itself. */
const BM25_RANK = `bm25(${W.name}, ${W.tags}, ${W.core}, ${W.body})`;
/** Matches read past the requested number, to see whether ties with the last one go deeper. */
const TIE_SLACK = 8;

/** Document frequencies are kept a minute per word, and at most this many. */
const FREQUENCY_TTL_MS = 60_000;
const FREQUENCIES_KEPT = 100_000;

const IDS = `(SELECT value FROM json_each(@ids))`;
/** A row of snapshot_search_rows (`r`) in the brain and, when asked, the type. */
const ROW_IN_SCOPE = '+r.brain_id = @brain AND (@type IS NULL OR r.type = @type)';
const HAS_TAG = (snapshotId: string) =>
  `(@tag IS NULL OR EXISTS (SELECT 1 FROM snapshots t, json_each(t.tags) WHERE t.id = ${snapshotId} AND json_each.value = @tag))`;
/**
 * A match's row in scope: its brain and type are in the row map, looked up by rowid per match.
 * Each shape of scope has statements of its own, checking only the filters it has: a
 * `@tag IS NULL OR …` test on every match cost 0.6 ms a search at 100,000 snapshots.
 */
const inScopeClause = (scope: SearchScope) =>
  [
    'r.brain_id = @brain',
    ...(scope.type === undefined ? [] : ['r.type = @type']),
    ...(scope.tag === undefined
      ? []
      : [
          'EXISTS (SELECT 1 FROM snapshots t, json_each(t.tags) WHERE t.id = r.snapshot_id AND json_each.value = @tag)',
        ]),
  ].join(' AND ');
const shapeOf = (scope: SearchScope) =>
  `${scope.type === undefined ? '' : 'type'}+${scope.tag === undefined ? '' : 'tag'}`;
/** FTS5's porter tokenizer is Porter's original algorithm, as the `stemmer` package. */
const prefixMisses = prefixStemsFor(stemmer);
const quoted = (words: string[]) => `"${words.join(' ')}"`;

/**
 * The FTS5 expression of a query, or undefined when nothing can match. Every word is quoted
 * (letters and digits only, from parseQuery), so user text is never FTS5 syntax.
 */
export function ftsExpression(scope: SearchScope, query: ParsedQuery): string | undefined {
  const parts = new Set([
    ...query.terms.map((t) => quoted([t])),
    ...query.prefixes.flatMap((p) => [`${quoted([p])}*`, ...prefixMisses(p).map((s) => quoted([s]))]),
    ...query.phrases.map(quoted),
  ]);
  if (parts.size === 0) return undefined;
  const words = `(${[...parts].join(' OR ')})`;
  if (scope.tag === undefined) return words;
  // A pre-filter on the tag's words; the exact tag is checked on the row (HAS_TAG).
  const tagWords = scope.tag.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return tagWords ? `tags : ${quoted(tagWords)} AND ${words}` : undefined;
}

/** A query the in-memory index can answer: the index, the query's terms (FTS5's), and the scope. */
interface IndexedQuery {
  index: TextIndex;
  terms: string[];
  scope: SearchScope;
}

/**
 * Search on SQLite: BM25 over FTS5's index for text, plain indexed reads for the rest. Queries
 * of plain words (most) are ranked by an index of our own kept in memory (text-index/), exactly
 * as FTS5 ranks them but without scoring through FTS5's auxiliary function; phrases, prefixes,
 * tag filters, and every query while that index is being built, go to FTS5.
 */
export class SqliteSearchStore implements SearchStore {
  private readonly stmt;
  private readonly textStatements = new Map<string, ReturnType<typeof textStatementsFor>>();
  private readonly frequencies = new Map<string, { n: number; at: number }>();
  private readonly textIndex: LiveTextIndex;

  constructor(
    private readonly db: SqliteDatabase,
    path: string,
  ) {
    this.textIndex = new LiveTextIndex(db, { path });
    const prepared = lazyStatements(db);
    // `+brain_id`: a brain's index would read the whole brain; the ids are looked up instead.
    this.stmt = {
      // Whether the brain holds every indexed snapshot (two index probes): then the index's own
      // matches are the brain's, with no look-up per match. Added for the one-brain benchmark
      // (bench/scenarios/search.mjs: the count and membership pass, 1.3 -> 0.3 ms a search at
      // 100,000 snapshots), and the common case of an embedded service with one brain.
      soleBrain: prepared<number>(
        `SELECT NOT EXISTS (SELECT 1 FROM snapshots WHERE brain_id < @brain)
            AND NOT EXISTS (SELECT 1 FROM snapshots WHERE brain_id > @brain)`,
      ),
      countOfWholeIndex: prepared<number>(`SELECT count(*) FROM snapshot_search WHERE snapshot_search MATCH @match`),
      // Which of the ids match: every match is walked inside SQLite and kept when its rowid is
      // one of theirs. `+rowid`: checking each id by its rowid (FTS5 seeking every word's
      // doclist to it) cost 50 µs an id at 100,000 snapshots, 150 at 1,000,000.
      matchingOfWholeIndex: prepared<string>(
        `SELECT r.snapshot_id FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
         WHERE snapshot_search MATCH @match
           AND +snapshot_search.rowid IN (SELECT rowid FROM snapshot_search_rows WHERE snapshot_id IN ${IDS})`,
      ),
      // The best matches when the index is the brain's: bm25 ordered by SQLite's own sorter,
      // which keeps only the top rows, and only those joined to their ids. FTS5's `ORDER BY
      // rank` sorts every match in a sorter of its own: 1.4 ms against 2.1 ms a query on the
      // benchmark's 100,000 snapshots (in-process, 400 queries of ~1,900 matches).
      bestOfWholeIndex: prepared<Ranked>(
        `SELECT r.snapshot_id, b.relevance, s.created_at
         FROM (SELECT rowid, -${BM25} AS relevance FROM snapshot_search WHERE snapshot_search MATCH @match
               ORDER BY relevance DESC LIMIT @limit) b
           JOIN snapshot_search_rows r ON r.rowid = b.rowid JOIN snapshots s ON s.id = r.snapshot_id`,
      ),
      // Counting stops at the cap: a common word's whole doclist is not walked. Over the whole
      // index, as BM25's own statistics are: a look-up of each match's brain cost up to 0.5 ms
      // a word, and a snapshot has dozens of words.
      frequency: prepared<number>(
        `SELECT count(*) FROM (SELECT 1 FROM snapshot_search WHERE snapshot_search MATCH @match LIMIT @cap)`,
      ),
      rankedRows: prepared<[number, string, string]>(
        `SELECT r.rowid, r.snapshot_id, s.created_at FROM snapshot_search_rows r JOIN snapshots s ON s.id = r.snapshot_id
         WHERE r.rowid IN (SELECT value FROM json_each(@keys)) AND ${ROW_IN_SCOPE}`,
      ),
      searchRowids: prepared<[string, number]>(
        `SELECT snapshot_id, rowid FROM snapshot_search_rows r
         WHERE snapshot_id IN (SELECT value FROM json_each(@keys)) AND ${ROW_IN_SCOPE}`,
      ),
      createdAt: prepared<{ id: string; created_at: string }>(
        `SELECT id, created_at FROM snapshots WHERE id IN ${IDS}`,
      ),
      edgesTouching: prepared<GraphEdge>(
        `SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE source_id IN ${IDS} AND +brain_id = @brain
         UNION SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE target_id IN ${IDS} AND +brain_id = @brain
         ORDER BY strength DESC, id LIMIT @limit`,
      ),
      // From the older side, a handful of ids, in the partial index of evolved_from edges
      // (migration 8); `+source_id`: not the newer side's index.
      evolutionsInto: prepared<Evolution>(
        `SELECT source_id, target_id FROM edges INDEXED BY edges_evolutions_by_target
         WHERE target_id IN ${IDS} AND edge_type = 'evolved_from' AND brain_id = @brain
           AND +source_id IN (SELECT value FROM json_each(@newer))`,
      ),
      snapshotsIn: prepared<FoundSnapshot>(
        `SELECT id, name, created_at, ${snapshotJson} AS json FROM snapshots
         WHERE id IN ${IDS} AND +brain_id = @brain AND (@type IS NULL OR type = @type) AND ${HAS_TAG('snapshots.id')}`,
      ),
      inScope: prepared<ScopedSnapshot>(
        `SELECT id, created_at FROM snapshots
         WHERE id IN ${IDS} AND +brain_id = @brain AND (@type IS NULL OR type = @type) AND ${HAS_TAG('snapshots.id')}`,
      ),
      // In the partial indexes of contradicts edges (migration 8).
      contradictionsOf: prepared<Contradiction>(
        `SELECT e.source_id AS subject_id, e.target_id AS snapshot_id, o.name, e.id AS edge_id, e.strength
         FROM edges e INDEXED BY edges_contradicts_by_source JOIN snapshots o ON o.id = e.target_id
         WHERE e.source_id IN ${IDS} AND e.brain_id = @brain AND e.edge_type = 'contradicts'
         UNION ALL
         SELECT e.target_id, e.source_id, o.name, e.id, e.strength
         FROM edges e INDEXED BY edges_contradicts_by_target JOIN snapshots o ON o.id = e.source_id
         WHERE e.target_id IN ${IDS} AND e.brain_id = @brain AND e.edge_type = 'contradicts'
         ORDER BY strength DESC, edge_id`,
      ),
    };
  }

  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number): Promise<TextMatches> {
    const indexed = this.indexedQuery(scope, query);
    if (indexed !== undefined) return this.textMatchesInIndex(indexed, limit);
    const match = ftsExpression(scope, query);
    if (match === undefined) return { hits: [], total: 0, matching: async () => new Set() };
    const shape = shapeOf(scope);
    const text = this.textStatementsOf(scope);
    const params = { match, brain: scope.brainId, type: scope.type ?? null, tag: scope.tag ?? null };
    const { read, total, deeper } = this.db.transaction(() => {
      const wholeIndex = shape === '+' && this.stmt.soleBrain().pluck().get({ brain: scope.brainId }) === 1;
      const bestStatement = wholeIndex ? this.stmt.bestOfWholeIndex().raw() : text.best;
      const best = bestStatement.all({ ...params, limit: limit + TIE_SLACK }) as Ranked[];
      // Fewer than asked for: these are all the matches.
      if (best.length < limit + TIE_SLACK) return { read: best, total: best.length, deeper: undefined };
      const floor = (best[limit - 1] as Ranked)[1];
      // Ties with the last hit may go deeper than read (identical texts): read them all.
      if ((best[best.length - 1] as Ranked)[1] >= floor) {
        const all = this.withCreatedAt(text.allMatches.all(params) as [string, number][]);
        return { read: all, total: all.length, deeper: undefined };
      }
      // Counted in SQLite: returning every match's rowid to build a set cost 13.6 ms (p95) a
      // search at 1,000,000 snapshots, the count alone 2.6.
      const count = wholeIndex ? this.stmt.countOfWholeIndex().pluck() : text.countMatches;
      return {
        read: best,
        total: count.get(params) as number,
        deeper: wholeIndex ? this.stmt.matchingOfWholeIndex().pluck() : text.matchingIds,
      };
    })();
    const hits = topByRelevance(read, limit).map(([id, relevance, created_at]) => ({ id, relevance, created_at }));
    hits.sort(
      (a, b) => b.relevance - a.relevance || compareDesc(a.created_at, b.created_at) || compareDesc(a.id, b.id),
    );
    const known = new Set(read.map(([id]) => id));
    return {
      hits: hits.slice(0, limit),
      total,
      // Read after the count, outside its transaction: a snapshot written in between may be
      // found here and not be in `total`, as it would be had the search started a moment later.
      matching: async (ids) => {
        const found = new Set(ids.filter((id) => known.has(id)));
        const unknown = deeper === undefined ? [] : ids.filter((id) => !known.has(id));
        if (unknown.length > 0) {
          for (const id of deeper?.all({ ...params, ids: JSON.stringify(unknown) }) as string[]) found.add(id);
        }
        return found;
      },
    };
  }

  /**
   * textMatches' hits without its count of every match, which costs a second pass over them.
   * Matches are read in FTS5's rank order until one ranks below the `limit`-th, so that ties
   * with it are read too, however many (texts whose insights share a word, as a crystallize
   * run's do, tie by the hundred), and ordered by age and id here: one ranking of the matches,
   * where textMatches ranks them all again and looks up every tie's age (5 ms a search at 1,000
   * snapshots, this 1).
   */
  async bestMatchIds(brainId: string, query: ParsedQuery, limit: number): Promise<string[]> {
    const scope = { brainId };
    const indexed = this.indexedQuery(scope, query);
    if (indexed !== undefined) {
      return byRelevance(this.rankInIndex(indexed, limit).read)
        .slice(0, limit)
        .map(([id]) => id);
    }
    const match = ftsExpression(scope, query);
    if (match === undefined) return [];
    const params = { match, brain: brainId, type: null, tag: null, limit: -1 };
    const read: Ranked[] = [];
    for (const row of this.textStatementsOf(scope).best.iterate(params) as IterableIterator<Ranked>) {
      if (read.length >= limit && row[1] < (read[limit - 1] as Ranked)[1]) break;
      read.push(row);
    }
    return byRelevance(read)
      .slice(0, limit)
      .map(([id]) => id);
  }

  textIndexStatus() {
    return this.textIndex.status();
  }

  onTextIndexEvent(listener: (event: TextIndexEvent) => void): void {
    this.textIndex.onEvent(listener);
  }

  /** Stops the in-memory index's upkeep (and any build); the store is closing. */
  close(): void {
    this.textIndex.close();
  }

  /** The in-memory index and the query's terms, when the index can answer the query. */
  private indexedQuery(scope: SearchScope, query: ParsedQuery): IndexedQuery | undefined {
    const plainWords = query.terms.length > 0 && query.prefixes.length === 0 && query.phrases.length === 0;
    if (!plainWords || scope.tag !== undefined) return undefined;
    const terms: string[] = [];
    for (const word of query.terms) {
      const term = this.textIndex.termOf(word);
      if (term === undefined) return undefined; // a word FTS5 reads as a phrase of several
      terms.push(term);
    }
    const index = this.textIndex.current();
    return index && { index, terms, scope };
  }

  /** The `limit` best matches in scope by the index, with every tie of the last, and the count. */
  private rankInIndex({ index, terms, scope }: IndexedQuery, limit: number): { read: Ranked[]; count: number } {
    const numbers = index.scopeOf(scope.brainId, scope.type);
    if (numbers === undefined) return { read: [], count: 0 };
    const ranking = index.rank(terms, numbers, limit);
    return { read: this.rankedRows(index, scope, ranking.docs, ranking.scores), count: ranking.count };
  }

  private textMatchesInIndex(indexed: IndexedQuery, limit: number): TextMatches {
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
        const index = this.textIndex.current() ?? indexed.index;
        const numbers = index.scopeOf(indexed.scope.brainId, indexed.scope.type);
        if (numbers === undefined) return found;
        const rows = this.stmt.searchRowids().raw().all(this.rowsInScope(indexed.scope, unknown));
        for (const [id, rowid] of rows) if (index.matches(indexed.terms, numbers, index.docOf(rowid))) found.add(id);
        return found;
      },
    };
  }

  /**
   * Ranked documents as rows (id, relevance, creation time). Rows are checked against the scope
   * again, and one deleted meanwhile is left out: a row number freed by a delete in another
   * process may already be another brain's.
   */
  private rankedRows(index: TextIndex, scope: SearchScope, docs: number[], scores: number[]): Ranked[] {
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

  private textStatementsOf(scope: SearchScope): ReturnType<typeof textStatementsFor> {
    const shape = shapeOf(scope);
    let text = this.textStatements.get(shape);
    if (text === undefined) {
      text = textStatementsFor(this.db, scope);
      this.textStatements.set(shape, text);
    }
    return text;
  }

  /** Every match with its creation time, when ties made the whole list needed (rare). */
  private withCreatedAt(rows: [string, number][]): Ranked[] {
    const created = new Map(
      this.stmt
        .createdAt()
        .all({ ids: JSON.stringify(rows.map(([id]) => id)) })
        .map((row) => [row.id, row.created_at]),
    );
    return rows.map(([id, relevance]) => [id, relevance, created.get(id) as string]);
  }

  async documentFrequencies(_brainId: string, words: string[], cap: number): Promise<Map<string, number>> {
    const now = Date.now();
    const counted = new Map<string, number>();
    for (const word of words) {
      const key = `${cap}\u0000${word}`;
      const kept = this.frequencies.get(key);
      if (kept && now - kept.at < FREQUENCY_TTL_MS) {
        counted.set(word, kept.n);
        continue;
      }
      const n = this.stmt
        .frequency()
        .pluck()
        .get({ match: quoted([word]), cap }) as number;
      if (this.frequencies.size >= FREQUENCIES_KEPT) this.frequencies.clear();
      this.frequencies.set(key, { n, at: now });
      counted.set(word, n);
    }
    return counted;
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

  async inScope(scope: SearchScope, ids: string[]) {
    if (ids.length === 0) return [];
    return this.stmt.inScope().all({
      brain: scope.brainId,
      ids: JSON.stringify(ids),
      type: scope.type ?? null,
      tag: scope.tag ?? null,
    });
  }

  async evolutionsInto(brainId: string, older: string[], newer: string[]) {
    if (older.length === 0 || newer.length === 0) return [];
    return this.stmt.evolutionsInto().all({ brain: brainId, ids: JSON.stringify(older), newer: JSON.stringify(newer) });
  }

  async contradictionsOf(brainId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return this.stmt.contradictionsOf().all({ brain: brainId, ids: JSON.stringify(ids) });
  }
}

/** A match: its id, relevance (higher is better) and creation time (for ties). */
type Ranked = [id: string, relevance: number, created_at: string];

/** The statements that find text matches in one shape of scope (inScopeClause). */
function textStatementsFor(db: SqliteDatabase, scope: SearchScope) {
  const from = `FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
    WHERE snapshot_search MATCH @match AND ${inScopeClause(scope)}`;
  return {
    // The best matches in scope in FTS5's own ranked order (the weights given as its rank
    // function), so that only those cross into JavaScript: at 100,000 snapshots a query
    // matches about 2,000, and reading all of them cost 4–5 ms a search.
    best: db
      .prepare(
        `SELECT r.snapshot_id, -rank, s.created_at
         FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
           JOIN snapshots s ON s.id = r.snapshot_id
         WHERE snapshot_search MATCH @match AND rank MATCH '${BM25_RANK}' AND ${inScopeClause(scope)}
         ORDER BY rank LIMIT @limit`,
      )
      .raw(),
    // Every match in scope with its relevance: only when ties reach past what \`best\` read.
    allMatches: db.prepare(`SELECT r.snapshot_id, -${BM25} ${from}`).raw(),
    // The count of every match in scope: no rank is computed, and nothing crosses into JavaScript.
    countMatches: db.prepare(`SELECT count(*) ${from}`).pluck(),
    // Which of the ids match in scope, every match walked (`+`: not an FTS5 seek per id).
    matchingIds: db.prepare(`SELECT r.snapshot_id ${from} AND +r.snapshot_id IN ${IDS}`).pluck(),
  };
}

/**
 * The `limit` rows of highest relevance, with every row tied with the last of them (so ties can
 * be broken by age afterwards), without sorting all of them.
 */
function topByRelevance(rows: Ranked[], limit: number): Ranked[] {
  if (rows.length <= limit) return rows;
  const sorted = rows.map((row) => row[1]).sort((a, b) => b - a);
  const floor = sorted[limit - 1] as number;
  return rows.filter((row) => row[1] >= floor);
}

const compareDesc = (a: string, b: string): number => (a < b ? 1 : a > b ? -1 : 0);

/** Best first, as textMatches orders its hits: by relevance, then the newest, then the id. */
function byRelevance(rows: Ranked[]): Ranked[] {
  return rows.sort((a, b) => b[1] - a[1] || compareDesc(a[2], b[2]) || compareDesc(a[0], b[0]));
}
