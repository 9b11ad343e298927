import { stemmer } from 'stemmer';
import type { ParsedQuery, SearchScope, TextMatches } from '../search-store.js';
import { prefixStemsFor } from '../prefix-stems.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { SQLITE_FIELD_WEIGHTS as W } from './text-index/bm25.js';
import { byRelevance, compareDesc, IDS, type Ranked, type TextIndex } from './text-search.js';

export const BM25 = `bm25(snapshot_search, ${W.name}, ${W.tags}, ${W.core}, ${W.body})`;
/** The same, as FTS5's rank function, so that FTS5 orders by it itself. */
const BM25_RANK = `bm25(${W.name}, ${W.tags}, ${W.core}, ${W.body})`;
/** Matches read past the requested number, to see whether ties with the last one go deeper. */
const TIE_SLACK = 8;
/**
 * A brain of at most this many snapshots, in a database that holds others, is searched by
 * seeking its own rows in FTS5's index: otherwise FTS5 ranks every match of the whole index
 * (every account's) before the brain's are kept, and a one-snapshot brain's prefix search cost
 * 0.3–2.5 s beside another account's 100,000 snapshots (8 three-letter prefixes: 0.4 s scanned,
 * 0.04 s sought). A seek costs about 50 µs a row, so a larger brain scans.
 */
const SEEK_BRAIN_MAX = 1_000;
/** The FTS5 rows of the brain @brain, through the snapshots' brain index. */
const BRAIN_ROWIDS = `SELECT r.rowid FROM snapshots s JOIN snapshot_search_rows r ON r.snapshot_id = s.id
  WHERE s.brain_id = @brain`;

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
export const quoted = (words: string[]) => `"${words.join(' ')}"`;

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
  // The exact tag is checked on each row in scope (inScopeClause); this only narrows the matches.
  const phrase = tagPhrase(scope.tag);
  return phrase === undefined ? words : `${phrase} AND ${words}`;
}

/**
 * A pre-filter for snapshots carrying `tag`: the tag itself as an FTS5 phrase on the index's
 * tags column (`"` doubled, nothing else is syntax inside quotes), so that FTS5 tokenizes it as
 * it tokenized the stored tags (case, accents, combining marks, scripts: splitting it here found
 * nothing for a decomposed "naïve" or "İstanbul"). Undefined for a tag without letters or
 * digits, which has no tokens, and an empty phrase matches nothing: such a tag's rows must be
 * checked without it. The exact tag is always checked on the row.
 */
export function tagPhrase(tag: string): string | undefined {
  // A NUL would end the expression's text for SQLite (an error); as a space it separates words.
  const text = tag.replaceAll('"', '""').replaceAll('\0', ' ');
  return /[\p{L}\p{N}]/u.test(tag) ? `tags : "${text}"` : undefined;
}

/** Text search by FTS5's own index and its bm25: answers every query (phrases, prefixes, tags). */
export class Fts5Search implements TextIndex {
  private readonly stmt;
  private readonly textStatements = new Map<string, ReturnType<typeof textStatementsFor>>();

  constructor(private readonly db: SqliteDatabase) {
    const prepared = lazyStatements(db);
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
      brainRowsUpTo: prepared<number>(
        `SELECT count(*) FROM (SELECT 1 FROM snapshots WHERE brain_id = @brain LIMIT @cap)`,
      ),
      createdAt: prepared<{ id: string; created_at: string }>(
        `SELECT id, created_at FROM snapshots WHERE id IN ${IDS}`,
      ),
    };
  }

  textMatches(scope: SearchScope, query: ParsedQuery, limit: number): TextMatches {
    return withMatching(this.rank(scope, query, limit), (ids) => this.matchingIn(scope, query, ids));
  }

  /**
   * textMatches as plain data, so that a worker thread can answer it (off-thread-fts.ts): the
   * hits, the count, and the ids read (every match when `complete`).
   */
  rank(scope: SearchScope, query: ParsedQuery, limit: number): RankedMatches {
    const match = ftsExpression(scope, query);
    if (match === undefined) return { hits: [], total: 0, read: [], complete: true };
    const params = paramsOf(scope, match);
    const { read, total, complete } = this.db.transaction(() => {
      const { wholeIndex, text } = this.statementsFor(scope);
      const bestStatement = wholeIndex ? this.stmt.bestOfWholeIndex().raw() : text.best;
      const best = bestStatement.all({ ...params, limit: limit + TIE_SLACK }) as Ranked[];
      // Fewer than asked for: these are all the matches.
      if (best.length < limit + TIE_SLACK) return { read: best, total: best.length, complete: true };
      const floor = (best[limit - 1] as Ranked)[1];
      // Ties with the last hit may go deeper than read (identical texts): read them all.
      if ((best[best.length - 1] as Ranked)[1] >= floor) {
        const all = this.withCreatedAt(text.allMatches.all(params) as [string, number][]);
        return { read: all, total: all.length, complete: true };
      }
      // Counted in SQLite: returning every match's rowid to build a set cost 13.6 ms (p95) a
      // search at 1,000,000 snapshots, the count alone 2.6.
      const count = wholeIndex ? this.stmt.countOfWholeIndex().pluck() : text.countMatches;
      return { read: best, total: count.get(params) as number, complete: false };
    })();
    const hits = topByRelevance(read, limit).map(([id, relevance, created_at]) => ({ id, relevance, created_at }));
    hits.sort(
      (a, b) => b.relevance - a.relevance || compareDesc(a.created_at, b.created_at) || compareDesc(a.id, b.id),
    );
    return { hits: hits.slice(0, limit), total, read: read.map(([id]) => id), complete };
  }

  /** Which of `ids` match the query in scope (every match walked inside SQLite, not a seek per id). */
  matchingIn(scope: SearchScope, query: ParsedQuery, ids: string[]): string[] {
    const match = ftsExpression(scope, query);
    if (match === undefined || ids.length === 0) return [];
    const { wholeIndex, text } = this.statementsFor(scope);
    const deeper = wholeIndex ? this.stmt.matchingOfWholeIndex().pluck() : text.matchingIds;
    return deeper.all({ ...paramsOf(scope, match), ids: JSON.stringify(ids) }) as string[];
  }

  /**
   * Whether the brain is past SEEK_BRAIN_MAX: its FTS5 reads then cost what the whole index
   * holds (its own, when it is alone there), and search has a worker thread make them.
   */
  isLargeBrain(brainId: string): boolean {
    return this.brainRows(brainId) > SEEK_BRAIN_MAX;
  }

  private brainRows(brainId: string): number {
    return this.stmt
      .brainRowsUpTo()
      .pluck()
      .get({ brain: brainId, cap: SEEK_BRAIN_MAX + 1 }) as number;
  }

  /** The whole index's statements when the brain is all of it; else the scope's, sought or scanned. */
  private statementsFor(scope: SearchScope) {
    const wholeIndex = shapeOf(scope) === '+' && this.stmt.soleBrain().pluck().get({ brain: scope.brainId }) === 1;
    const seek = !wholeIndex && this.brainRows(scope.brainId) <= SEEK_BRAIN_MAX;
    return { wholeIndex, text: this.textStatementsOf(scope, seek) };
  }

  /**
   * Matches are read in FTS5's rank order until one ranks below the `limit`-th, so that ties
   * with it are read too, however many (texts whose insights share a word, as a crystallize
   * run's do, tie by the hundred), and ordered by age and id here: one ranking of the matches,
   * where textMatches ranks them all again and looks up every tie's age (5 ms a search at 1,000
   * snapshots, this 1).
   */
  bestMatchIds(brainId: string, query: ParsedQuery, limit: number): string[] {
    const scope = { brainId };
    const match = ftsExpression(scope, query);
    if (match === undefined) return [];
    const params = { match, brain: brainId, type: null, tag: null, limit: -1 };
    const read: Ranked[] = [];
    for (const row of this.textStatementsOf(scope, false).best.iterate(params) as IterableIterator<Ranked>) {
      if (read.length >= limit && row[1] < (read[limit - 1] as Ranked)[1]) break;
      read.push(row);
    }
    return byRelevance(read)
      .slice(0, limit)
      .map(([id]) => id);
  }

  private textStatementsOf(scope: SearchScope, seek: boolean): ReturnType<typeof textStatementsFor> {
    const shape = `${shapeOf(scope)}${seek ? ':seek' : ''}`;
    let text = this.textStatements.get(shape);
    if (text === undefined) {
      text = textStatementsFor(this.db, scope, seek);
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
}

const paramsOf = (scope: SearchScope, match: string) => ({
  match,
  brain: scope.brainId,
  type: scope.type ?? null,
  tag: scope.tag ?? null,
});

/** textMatches' answer as plain data (Fts5Search.rank), as a worker thread can send it. */
export interface RankedMatches {
  hits: TextMatches['hits'];
  total: number;
  /** The ids of the matches read: every match's when `complete`. */
  read: string[];
  complete: boolean;
}

/**
 * TextMatches from ranked matches: `matching` answers from the ids read, and asks `deeper` of
 * the others only when not every match was read. It reads after the count, outside its
 * transaction: a snapshot written in between may be found here and not be in `total`, as it
 * would be had the search started a moment later.
 */
export function withMatching(
  ranked: RankedMatches,
  deeper: (ids: string[]) => string[] | Promise<string[]>,
): TextMatches {
  const known = new Set(ranked.read);
  return {
    hits: ranked.hits,
    total: ranked.total,
    matching: async (ids) => {
      const found = new Set(ids.filter((id) => known.has(id)));
      const unknown = ranked.complete ? [] : ids.filter((id) => !known.has(id));
      if (unknown.length > 0) for (const id of await deeper(unknown)) found.add(id);
      return found;
    },
  };
}

/**
 * The statements that find text matches in one shape of scope (inScopeClause); with `seek`,
 * only the brain's own rows of the index are read (SEEK_BRAIN_MAX).
 */
function textStatementsFor(db: SqliteDatabase, scope: SearchScope, seek: boolean) {
  const inScope = `${inScopeClause(scope)}${seek ? ` AND snapshot_search.rowid IN (${BRAIN_ROWIDS})` : ''}`;
  const from = `FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
    WHERE snapshot_search MATCH @match AND ${inScope}`;
  return {
    // The best matches in scope in FTS5's own ranked order (the weights given as its rank
    // function), so that only those cross into JavaScript: at 100,000 snapshots a query
    // matches about 2,000, and reading all of them cost 4–5 ms a search. A small brain's few
    // rows are ranked by bm25 itself: FTS5's rank order would rank the whole index first.
    best: db
      .prepare(
        seek
          ? `SELECT r.snapshot_id, -${BM25} AS relevance, s.created_at
             FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
               JOIN snapshots s ON s.id = r.snapshot_id
             WHERE snapshot_search MATCH @match AND ${inScope}
             ORDER BY relevance DESC LIMIT @limit`
          : `SELECT r.snapshot_id, -rank, s.created_at
             FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
               JOIN snapshots s ON s.id = r.snapshot_id
             WHERE snapshot_search MATCH @match AND rank MATCH '${BM25_RANK}' AND ${inScope}
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
