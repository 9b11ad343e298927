import type { Memory } from '../../model.js';
import type { MemorySearch } from '../memory-store.js';
import { lazyStatements } from './lazy-statement.js';
import { BRAIN_SPAN as SPAN } from './memories-sql.js';
import {
  byOccurrence,
  COLUMNS_OF_M,
  filterValues,
  memoryFilters,
  memoryFromRow,
  needsRows,
  type MemoryRow,
} from './memory-rows.js';
import type { SqliteDatabase } from './open-database.js';
import { ftsExpression } from './search.js';

/** The anchors of a neighbour read: @anchors, a JSON array of [session_id, occurred_at, id], by place `k`. */
const ANCHORS = `WITH a (k, session_id, occurred_at, id) AS (
  SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
  FROM json_each(@anchors))`;

const BRAIN_SPAN = BigInt(SPAN);
/**
 * A word's memories are counted up to this many; past it, how far into the brain's writes they
 * reached extrapolates the rest (ranking needs the order of magnitude, and counting a common
 * word in full walks its whole doclist).
 */
const SAMPLED_COUNT = 100;

/**
 * BM25 weights in the index's column order (content, speaker, tags). Most memories have few
 * tags or none, so BM25's length normalization already scores a one-word tag column low against
 * the average; a weight of 4 puts a tag match above a single mention in the content.
 */
const BM25 = 'bm25(memory_search, 1, 1, 4)';
/** The matches in the brain's rowid range (memories-sql.ts), of the type when one is asked for. */
const MATCHES = `memory_search JOIN memory_search_rows r ON r.rowid = memory_search.rowid
  WHERE memory_search MATCH @match AND memory_search.rowid BETWEEN @lo AND @hi
    AND (@memory_type IS NULL OR r.memory_type = @memory_type)`;
/** The filters of design §12 read the memory itself. */
const MATCHES_FILTERED = `memory_search JOIN memory_search_rows r ON r.rowid = memory_search.rowid
    JOIN memories m ON m.id = r.memory_id
  WHERE memory_search MATCH @match AND memory_search.rowid BETWEEN @lo AND @hi
    AND (@memory_type IS NULL OR r.memory_type = @memory_type) AND ${memoryFilters('m')}`;
/** Without a type, the index alone answers. */
const MATCHES_ANY_TYPE = 'memory_search WHERE memory_search MATCH @match AND rowid BETWEEN @lo AND @hi';

/**
 * The memory store's reads by words and by place on SQLite: FTS5 matches of a brain (counted and
 * ranked), the words' counts memory ranking weighs them by, and the turns around a memory.
 */
export class SqliteMemorySearch {
  private readonly stmt;

  constructor(private readonly db: SqliteDatabase) {
    const prepared = lazyStatements(db);
    this.stmt = {
      brainNumber: prepared<{ n: number }>('SELECT n FROM memory_brains WHERE brain_id = @brain_id'),
      // The count and the ranked page read only the index (and, for a type, the narrow row map);
      // then the page's rows. Ties: the later write (a higher rowid) first.
      countMatches: prepared<{ n: number }>(`SELECT count(*) AS n FROM ${MATCHES}`),
      countMatchesFiltered: prepared<{ n: number }>(`SELECT count(*) AS n FROM ${MATCHES_FILTERED}`),
      countMatchesAnyType: prepared<{ n: number }>(`SELECT count(*) AS n FROM ${MATCHES_ANY_TYPE}`),
      topMatches: prepared<{ rowid: number; relevance: number }>(
        `SELECT memory_search.rowid AS rowid, -${BM25} AS relevance FROM ${MATCHES}
         ORDER BY relevance DESC, memory_search.rowid DESC LIMIT @limit`,
      ),
      topMatchesFiltered: prepared<{ rowid: number; relevance: number }>(
        `SELECT memory_search.rowid AS rowid, -${BM25} AS relevance FROM ${MATCHES_FILTERED}
         ORDER BY relevance DESC, memory_search.rowid DESC LIMIT @limit`,
      ),
      topMatchesAnyType: prepared<{ rowid: number; relevance: number }>(
        `SELECT rowid, -${BM25} AS relevance FROM ${MATCHES_ANY_TYPE} ORDER BY relevance DESC, rowid DESC LIMIT @limit`,
      ),
      rowsIn: prepared<MemoryRow & { rowid: number }>(
        `SELECT r.rowid AS rowid, ${COLUMNS_OF_M}
         FROM memory_search_rows r JOIN memories m ON m.id = r.memory_id
         WHERE r.rowid IN (SELECT value FROM json_each(@rowids))`,
      ),
      among: prepared<MemoryRow & { matches_text: number }>(
        `SELECT ${COLUMNS_OF_M},
           EXISTS (SELECT 1 FROM memory_search WHERE memory_search MATCH @match AND rowid = r.rowid) AS matches_text
         FROM memories m JOIN memory_search_rows r ON r.memory_id = m.id
         WHERE m.id IN (SELECT value FROM json_each(@ids)) AND m.brain_id = @brain_id
           AND (@memory_type IS NULL OR m.memory_type = @memory_type) AND ${memoryFilters('m')}`,
      ),
      // Memories ever written to the brain (the sequence of its rowids): a deleted one still
      // counts, which moves every word's weight alike, and it costs one index probe, not a scan.
      brainSize: prepared<{ n: number }>(
        'SELECT coalesce(max(rowid) - @lo, 0) AS n FROM memory_search_rows WHERE rowid BETWEEN @lo AND @hi',
      ),
      contentLengths: prepared<{ n: number; mean: number | null; square: number | null }>(
        `SELECT count(*) AS n, avg(l) AS mean, avg(l * l) AS square FROM (SELECT length(content) AS l FROM memories
           WHERE brain_id = @brain_id ORDER BY created_at DESC, id DESC LIMIT @newest)`,
      ),
      // The first @cap matches in rowid order (FTS5's own), and the rowid where they end.
      termCount: prepared<{ n: number; last: number | null }>(
        `SELECT count(*) AS n, max(rowid) AS last FROM (SELECT rowid FROM memory_search
           WHERE memory_search MATCH @match AND rowid BETWEEN @lo AND @hi LIMIT @cap)`,
      ),
      // Every anchor's both sides in one statement (one statement per anchor cost more in
      // better-sqlite3's calls and row objects than the index reads): for each anchor of @anchors
      // ([session_id, occurred_at, id] by its place), the rowids of its n before and n after; the
      // rows come in rowid order and are put in time order after.
      around: prepared<MemoryRow & { anchor: number }>(
        `${ANCHORS}
         SELECT a.k AS anchor, ${COLUMNS_OF_M} FROM a JOIN memories m ON m.rowid IN (
           SELECT rowid FROM memories WHERE brain_id = @brain_id AND session_id = a.session_id
             AND (occurred_at, id) < (a.occurred_at, a.id) ORDER BY occurred_at DESC, id DESC LIMIT @n)
         UNION ALL
         SELECT a.k AS anchor, ${COLUMNS_OF_M} FROM a JOIN memories m ON m.rowid IN (
           SELECT rowid FROM memories WHERE brain_id = @brain_id AND session_id = a.session_id
             AND (occurred_at, id) > (a.occurred_at, a.id) ORDER BY occurred_at, id LIMIT @n)`,
      ),
      // The brain's memories nearest in time, as `around`; memories_by_occurrence walks
      // occurred_at, so the range is written on it alone and id only breaks its ties.
      nearest: prepared<MemoryRow & { anchor: number }>(
        `${ANCHORS}
         SELECT a.k AS anchor, ${COLUMNS_OF_M} FROM a JOIN memories m ON m.rowid IN (
           SELECT rowid FROM memories WHERE brain_id = @brain_id AND occurred_at <= a.occurred_at
             AND (occurred_at < a.occurred_at OR id < a.id) ORDER BY occurred_at DESC, id DESC LIMIT @n)
         UNION ALL
         SELECT a.k AS anchor, ${COLUMNS_OF_M} FROM a JOIN memories m ON m.rowid IN (
           SELECT rowid FROM memories WHERE brain_id = @brain_id AND occurred_at >= a.occurred_at
             AND (occurred_at > a.occurred_at OR id > a.id) ORDER BY occurred_at, id LIMIT @n)`,
      ),
    };
  }

  /** The brain's range of index rowids (memories-sql.ts), or undefined while it has no memory. */
  brainRange(brainId: string): { lo: number; hi: number } | undefined {
    const brain = this.stmt.brainNumber().get({ brain_id: brainId });
    if (!brain) return undefined;
    const lo = brain.n * SPAN;
    return { lo, hi: lo + SPAN - 1 };
  }

  /** How many memories of the brain ever written (a deleted one still counts). */
  brainSize(range: { lo: number; hi: number }): number {
    return Number(this.stmt.brainSize().get({ lo: BigInt(range.lo), hi: BigInt(range.hi) })?.n ?? 0);
  }

  /** The memories at these index rowids that still exist, by rowid. */
  atKeys(keys: readonly number[]): Map<number, Memory> {
    return new Map(
      this.stmt
        .rowsIn()
        .all({ rowids: JSON.stringify(keys) })
        .map(({ rowid, ...row }) => [rowid, memoryFromRow(row)]),
    );
  }

  /** How many memories of the search's brain (and filters) match its query. */
  countMatches(search: Omit<MemorySearch, 'limit'>): number {
    const match = ftsExpression({ brainId: search.brainId }, search.query);
    const keys = this.brainRange(search.brainId);
    if (match === undefined || !keys) return 0;
    const scope = { match, lo: BigInt(keys.lo), hi: BigInt(keys.hi), ...filterValues(search) };
    const count = needsRows(search)
      ? this.stmt.countMatchesFiltered()
      : search.memoryType === undefined
        ? this.stmt.countMatchesAnyType()
        : this.stmt.countMatches();
    return count.get(scope)?.n ?? 0;
  }

  async search(search: MemorySearch) {
    const match = ftsExpression({ brainId: search.brainId }, search.query);
    if (match === undefined) return { hits: [], total: 0 };
    return this.db.transaction(() => {
      const brain = this.stmt.brainNumber().get({ brain_id: search.brainId });
      if (!brain) return { hits: [], total: 0 };
      const lo = BigInt(brain.n) * BRAIN_SPAN;
      const scope = { match, lo, hi: lo + BRAIN_SPAN - 1n, ...filterValues(search) };
      const [count, ranked] = needsRows(search)
        ? [this.stmt.countMatchesFiltered(), this.stmt.topMatchesFiltered()]
        : search.memoryType === undefined
          ? [this.stmt.countMatchesAnyType(), this.stmt.topMatchesAnyType()]
          : [this.stmt.countMatches(), this.stmt.topMatches()];
      const total = search.uncounted ? 0 : (count.get(scope)?.n ?? 0);
      const top = ranked.all({ ...scope, limit: search.limit });
      const rows = new Map(
        this.stmt
          .rowsIn()
          .all({ rowids: JSON.stringify(top.map((hit) => hit.rowid)) })
          .map(({ rowid, ...row }) => [rowid, memoryFromRow(row)]),
      );
      const hits = top.map(({ rowid, relevance }) => ({ memory: rows.get(rowid) as Memory, relevance }));
      return { hits, total };
    })();
  }

  async among(search: Omit<MemorySearch, 'limit'>, ids: string[]) {
    const match = ftsExpression({ brainId: search.brainId }, search.query);
    if (ids.length === 0 || match === undefined) return [];
    const rows = this.stmt.among().all({
      match,
      ids: JSON.stringify(ids),
      brain_id: search.brainId,
      ...filterValues(search),
    });
    return rows.map(({ matches_text, ...row }) => ({ memory: memoryFromRow(row), matchesText: matches_text === 1 }));
  }

  async termStats(brainId: string, terms: readonly string[], cap: number) {
    return this.db.transaction(() => {
      const brain = this.stmt.brainNumber().get({ brain_id: brainId });
      if (!brain) return { size: 0, df: terms.map(() => 0) };
      const lo = BigInt(brain.n) * BRAIN_SPAN;
      const range = { lo, hi: lo + BRAIN_SPAN - 1n };
      const size = Number(this.stmt.brainSize().get(range)?.n ?? 0);
      const sample = Math.min(cap, SAMPLED_COUNT);
      const df = terms.map((term) => {
        const match = ftsExpression({ brainId }, { terms: [term], prefixes: [], phrases: [] });
        if (match === undefined) return 0;
        const found = this.stmt.termCount().get({ ...range, match, cap: sample });
        const n = found?.n ?? 0;
        if (n < sample || !found?.last) return n;
        // A common word: its first matches in rowid (write) order say how dense it is.
        return Math.min(cap, Math.round((n * size) / Math.max(1, Number(BigInt(found.last) - lo))));
      });
      return { size, df };
    })();
  }

  async contentLengths(brainId: string, newest: number) {
    const row = this.stmt.contentLengths().get({ brain_id: brainId, newest });
    return { n: row?.n ?? 0, mean: row?.mean ?? 0, meanSquare: row?.square ?? 0 };
  }

  async sessionContext(brainId: string, anchors: readonly Memory[], n: number) {
    return this.aroundEach(
      brainId,
      anchors.filter((a) => a.session_id !== null),
      n,
      this.stmt.around(),
    );
  }

  async nearestInTime(brainId: string, anchors: readonly Memory[], n: number) {
    return this.aroundEach(
      brainId,
      anchors.filter((a) => a.session_id === null),
      n,
      this.stmt.nearest(),
    );
  }

  /** Each anchor's up to n memories before and n after (by `read`), oldest first, in one statement. */
  private aroundEach(
    brainId: string,
    anchors: readonly Memory[],
    n: number,
    read: { all(params: object): (MemoryRow & { anchor: number })[] },
  ): Map<string, Memory[]> {
    const context = new Map<string, Memory[]>();
    const distinct = anchors.filter((a, i) => anchors.findIndex((b) => b.id === a.id) === i);
    if (n <= 0 || distinct.length === 0) return context;
    for (const anchor of distinct) context.set(anchor.id, []);
    const rows = read.all({
      brain_id: brainId,
      n,
      anchors: JSON.stringify(distinct.map((a) => [a.session_id, a.occurred_at, a.id])),
    });
    for (const { anchor, ...row } of rows) context.get((distinct[anchor] as Memory).id)?.push(memoryFromRow(row));
    for (const around of context.values()) around.sort(byOccurrence);
    return context;
  }
}
