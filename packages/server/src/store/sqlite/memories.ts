import type { Memory, PageOf, Snapshot } from '../../model.js';
import { MEMORY_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import type {
  IndexedMemoryText,
  MemoryFilters,
  MemoryQuery,
  MemorySearch,
  MemoryStore,
  MemoryTextFeed,
} from '../memory-store.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { BRAIN_SPAN as SPAN } from './memories-sql.js';
import { snapshotFromRow, type SnapshotRow } from './rows.js';
import { ftsExpression } from './search.js';

const COLUMNS = MEMORY_COLUMNS.join(', ');
const COLUMNS_OF_M = MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ');
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

/** Shared with the knowledge store, which writes memories with the snapshots of an ingestion. */
export const INSERT_MEMORY = `INSERT INTO memories (account_id, ${COLUMNS})
  VALUES (@account_id, ${MEMORY_COLUMNS.map((c) => `@${c}`).join(', ')})`;
/**
 * After the snapshot @snapshot_id was deleted: the memory promoted into it names the next
 * snapshot of that promotion (as promotedSnapshots orders them), or null when none is left, and
 * its updated_at moves to @at (or 1 ms past its own, should that be later).
 */
export const REPOINT_PROMOTION = `UPDATE memories SET
    promoted_to = (SELECT s.id FROM snapshots s
      WHERE s.source_id = memories.id AND s.source_type = 'memory' AND s.account_id = memories.account_id
        AND s.brain_id = memories.brain_id
      ORDER BY s.created_at, s.id LIMIT 1),
    updated_at = CASE WHEN updated_at < @at THEN @at
      ELSE strftime('%Y-%m-%dT%H:%M:%fZ', updated_at, '+0.001 seconds') END
  WHERE id = @memory_id AND account_id = @account_id AND promoted_to = @snapshot_id`;
/** Sets promoted_to only on a memory still unpromoted and unchanged since it was read. */
export const PROMOTE_MEMORY = `UPDATE memories SET promoted_to = @snapshot_id, updated_at = @at
  WHERE id = @id AND account_id = @account_id AND promoted_to IS NULL AND updated_at = @read_at`;

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
function memoryFilters(m: string): string {
  return `(@speaker IS NULL OR ${m}.speaker = @speaker) AND (@session_id IS NULL OR ${m}.session_id = @session_id)
    AND (@since IS NULL OR ${m}.occurred_at >= @since) AND (@until IS NULL OR ${m}.occurred_at <= @until)
    AND (@current_only = 0 OR ${m}.superseded_by IS NULL OR ${m}.superseded_at > @current_at)`;
}
const FILTERS = `brain_id = @brain_id AND (@memory_type IS NULL OR memory_type = @memory_type) AND ${memoryFilters('memories')}
  AND (@tag IS NULL OR EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE json_each.value = @tag))`;
/** The values of the filters' parameters, null for any. */
const filterValues = (f: MemoryFilters) => ({
  memory_type: f.memoryType ?? null,
  speaker: f.speaker ?? null,
  session_id: f.sessionId ?? null,
  since: f.since ?? null,
  until: f.until ?? null,
  current_only: f.current ? 1 : 0,
  // Replaced only by a memory that occurred after the moment asked about: current then.
  current_at: f.current?.asOf ?? '9999-12-31T23:59:59.999Z',
});
const needsRows = (f: MemoryFilters) =>
  f.speaker !== undefined ||
  f.sessionId !== undefined ||
  f.since !== undefined ||
  f.until !== undefined ||
  f.current !== undefined;
const AFTER = '(@after_at IS NULL OR (created_at, id) < (@after_at, @after_id))';

type MemoryRow = Omit<Memory, 'tags'> & { tags: string };
/** What the word index of memories reads of each (its key, type and text). */
const TEXTS = `SELECT r.rowid AS key, r.memory_type, m.content, m.speaker, m.tags
  FROM memory_search_rows r JOIN memories m ON m.id = r.memory_id`;
const LATEST_CHANGE = 'SELECT coalesce(max(seq), 0) FROM memory_search_changes';
type TextRow = Omit<IndexedMemoryText, 'tags'> & { tags: string };
const textFromRow = (row: TextRow): IndexedMemoryText => ({ ...row, tags: JSON.parse(row.tags) as string[] });

export const memoryToRow = (accountId: string, m: Memory) => ({
  ...m,
  account_id: accountId,
  tags: JSON.stringify(m.tags),
});
const memoryFromRow = (row: MemoryRow): Memory => ({ ...row, tags: JSON.parse(row.tags) as string[] });
/** Oldest first by (occurred_at, id). */
const byOccurrence = (a: Memory, b: Memory) =>
  a.occurred_at < b.occurred_at ? -1 : a.occurred_at > b.occurred_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Memories on SQLite: every write through group commit, search on an FTS5 index. */
export class SqliteMemoryStore implements MemoryStore {
  readonly relevanceHasIdf = true; // FTS5's bm25
  readonly textFeed: MemoryTextFeed;
  private readonly stmt;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly writes: GroupCommit,
    /** The database file, for the word index's builds in a worker; none for a database in memory. */
    private readonly path?: string,
  ) {
    const prepared = lazyStatements(db);
    this.stmt = {
      insert: prepared<never>(INSERT_MEMORY),
      get: prepared<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE id = @id AND account_id = @account_id`),
      list: prepared<MemoryRow>(
        `SELECT ${COLUMNS} FROM memories WHERE ${FILTERS} AND ${AFTER}
         ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      ),
      count: prepared<{ n: number }>(`SELECT count(*) AS n FROM memories WHERE ${FILTERS}`),
      update: prepared<never>(
        `UPDATE memories SET content = @content, memory_type = @memory_type, speaker = @speaker, tags = @tags,
           source_emotion = @source_emotion, emotional_valence = @emotional_valence,
           emotional_intensity = @emotional_intensity, occurred_at = @occurred_at, session_id = @session_id,
           superseded_by = @superseded_by, superseded_at = @superseded_at, updated_at = @updated_at
         WHERE id = @id AND account_id = @account_id`,
      ),
      delete: prepared<never>('DELETE FROM memories WHERE id = @id AND account_id = @account_id'),
      // A deleted version's place in its chain passes to what replaced it (or to none).
      bridge: prepared<never>(
        `UPDATE memories SET superseded_by = @superseded_by, superseded_at = @superseded_at
         WHERE brain_id = @brain_id AND superseded_by = @id`,
      ),
      replaced: prepared<MemoryRow>(
        `SELECT ${COLUMNS} FROM memories WHERE brain_id = @brain_id
           AND superseded_by IN (SELECT value FROM json_each(@ids))`,
      ),
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
        `SELECT r.rowid AS rowid, ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')}
         FROM memory_search_rows r JOIN memories m ON m.id = r.memory_id
         WHERE r.rowid IN (SELECT value FROM json_each(@rowids))`,
      ),
      among: prepared<MemoryRow & { matches_text: number }>(
        `SELECT ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')},
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
      changeMarks: prepared<{ latest: number; oldest: number }>(
        `SELECT (${LATEST_CHANGE}) AS latest,
           (SELECT coalesce(min(seq), 0) FROM memory_search_changes) AS oldest`,
      ),
      changedKeys: prepared<number>(
        'SELECT DISTINCT search_rowid FROM memory_search_changes WHERE seq > @after AND seq <= @up_to',
      ),
      brainTexts: prepared<TextRow>(`${TEXTS} WHERE r.rowid > @after AND r.rowid <= @hi ORDER BY r.rowid LIMIT @limit`),
      keysOf: prepared<[string, number]>(
        'SELECT memory_id, rowid FROM memory_search_rows WHERE memory_id IN (SELECT value FROM json_each(@ids))',
      ),
      texts: prepared<TextRow>(`${TEXTS} WHERE r.rowid IN (SELECT value FROM json_each(@keys))`),
      promotedSnapshots: prepared<SnapshotRow>(
        `SELECT ${SNAPSHOT_COLUMNS.join(', ')} FROM snapshots
         WHERE source_id = @source_id AND source_type = 'memory' AND account_id = @account_id
           AND brain_id = @brain_id
         ORDER BY created_at, id`,
      ),
    };
    this.textFeed = this.makeTextFeed();
  }

  /** The log of index changes (migration 14) and the texts, for the word index of memories. */
  private makeTextFeed(): MemoryTextFeed {
    const range = (brainId: string) => {
      const brain = this.stmt.brainNumber().get({ brain_id: brainId });
      if (!brain) return undefined;
      const lo = brain.n * SPAN;
      return { lo, hi: lo + SPAN - 1 };
    };
    const inFile = this.path !== undefined && this.path !== '' && this.path !== ':memory:';
    return {
      workerReads: inFile
        ? {
            path: this.path as string,
            seq: LATEST_CHANGE,
            texts: `${TEXTS} WHERE r.rowid BETWEEN @lo AND @hi ORDER BY r.rowid`,
          }
        : undefined,
      changeMarks: () => this.stmt.changeMarks().get({}) ?? { latest: 0, oldest: 0 },
      changedKeys: (after, upTo) => this.stmt.changedKeys().pluck().all({ after, up_to: upTo }),
      brainKeys: (brainId) => {
        const keys = range(brainId);
        if (!keys) return undefined;
        const written = Number(this.stmt.brainSize().get({ lo: BigInt(keys.lo), hi: BigInt(keys.hi) })?.n ?? 0);
        return { ...keys, written };
      },
      brainTexts: (brainId, after, limit) => {
        const keys = range(brainId);
        if (!keys) return [];
        return this.stmt
          .brainTexts()
          .all({ after: BigInt(Math.max(after, keys.lo - 1)), hi: BigInt(keys.hi), limit })
          .map(textFromRow);
      },
      keysOf: (ids) =>
        new Map(
          this.stmt
            .keysOf()
            .raw()
            .all({ ids: JSON.stringify(ids) }),
        ),
      texts: (keys) =>
        this.stmt
          .texts()
          .all({ keys: JSON.stringify(keys) })
          .map(textFromRow),
      memories: (keys) =>
        new Map(
          this.stmt
            .rowsIn()
            .all({ rowids: JSON.stringify(keys) })
            .map(({ rowid, ...row }) => [rowid, memoryFromRow(row)]),
        ),
      countMatches: (search) => {
        const match = ftsExpression({ brainId: search.brainId }, search.query);
        const keys = range(search.brainId);
        if (match === undefined || !keys) return 0;
        const scope = { match, lo: BigInt(keys.lo), hi: BigInt(keys.hi), ...filterValues(search) };
        const count = needsRows(search)
          ? this.stmt.countMatchesFiltered()
          : search.memoryType === undefined
            ? this.stmt.countMatchesAnyType()
            : this.stmt.countMatches();
        return count.get(scope)?.n ?? 0;
      },
    };
  }

  insert(accountId: string, memory: Memory): Promise<void> {
    return this.writes.run(() => {
      this.stmt.insert().run(memoryToRow(accountId, memory));
    });
  }

  async get(accountId: string, id: string): Promise<Memory | undefined> {
    const row = this.stmt.get().get({ id, account_id: accountId });
    return row && memoryFromRow(row);
  }

  async list(query: MemoryQuery): Promise<PageOf<Memory>> {
    const filters = { brain_id: query.brainId, ...filterValues(query), tag: query.tag ?? null };
    return this.db.transaction(() => {
      const rows = this.stmt.list().all({
        ...filters,
        limit: query.limit,
        offset: query.offset,
        after_at: query.after?.created_at ?? null,
        after_id: query.after?.id ?? null,
      });
      const total = this.stmt.count().get(filters)?.n ?? 0;
      return { rows: rows.map(memoryFromRow), total };
    })();
  }

  update(accountId: string, id: string, change: (current: Memory) => Memory): Promise<Memory | undefined> {
    return this.writes.run(() => {
      const row = this.stmt.get().get({ id, account_id: accountId });
      if (!row) return undefined;
      const next = change(memoryFromRow(row));
      this.stmt.update().run(memoryToRow(accountId, next));
      return next;
    });
  }

  delete(accountId: string, id: string): Promise<boolean> {
    return this.writes.run(() => {
      const row = this.stmt.get().get({ id, account_id: accountId });
      if (!row) return false;
      this.stmt.delete().run({ id, account_id: accountId });
      this.stmt
        .bridge()
        .run({ id, brain_id: row.brain_id, superseded_by: row.superseded_by, superseded_at: row.superseded_at });
      return true;
    });
  }

  async replaced(brainId: string, ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    return this.stmt
      .replaced()
      .all({ brain_id: brainId, ids: JSON.stringify(ids) })
      .map(memoryFromRow);
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
      const total = count.get(scope)?.n ?? 0;
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

  async promotedSnapshots(accountId: string, memory: Pick<Memory, 'id' | 'brain_id'>): Promise<Snapshot[]> {
    return this.stmt
      .promotedSnapshots()
      .all({ source_id: memory.id, account_id: accountId, brain_id: memory.brain_id })
      .map(snapshotFromRow);
  }
}
