import type pg from 'pg';
import { inTransaction } from './queries.js';
import type { Memory, PageOf, Snapshot } from '../../model.js';
import { MEMORY_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import type { MemoryFilters, MemoryQuery, MemorySearch, MemoryStore } from '../memory-store.js';
import { tsqueryParts } from './search.js';

const COLUMNS = MEMORY_COLUMNS.join(', ');
const placeholders = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(', ');

// $1 brain, $2 memory_type, $3 speaker, $4 tag, $5 session, $6 since, $7 until (each null for any),
// $8 current only, $9 the instant it is current at (design §6.1).
const FILTERS = `brain_id = $1 AND ($2::text IS NULL OR memory_type = $2) AND ($3::text IS NULL OR speaker = $3)
  AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(tags) t WHERE t = $4))
  AND ($5::text IS NULL OR session_id = $5) AND ($6::timestamptz IS NULL OR occurred_at >= $6)
  AND ($7::timestamptz IS NULL OR occurred_at <= $7)
  AND ($8::boolean IS NOT TRUE OR superseded_by IS NULL OR superseded_at > $9::timestamptz)`;
// $1 brain, $2 the query's parts, $3 memory_type, $4 speaker, $5 session, $6 since, $7 until, $8, $9 as above.
const SEARCH_FILTERS = `brain_id = $1 AND ($3::text IS NULL OR memory_type = $3) AND ($4::text IS NULL OR speaker = $4)
  AND ($5::text IS NULL OR session_id = $5) AND ($6::timestamptz IS NULL OR occurred_at >= $6)
  AND ($7::timestamptz IS NULL OR occurred_at <= $7)
  AND ($8::boolean IS NOT TRUE OR superseded_by IS NULL OR superseded_at > $9::timestamptz)`;
/**
 * The query's tsquery, parsed once per statement. As a subquery in FROM, the planner pulls its
 * expression up into the row filter and the rank, so to_tsquery parsed and stemmed every word of
 * the query again for every memory of the brain (50 ms a search of a 1,000-memory brain; a large
 * ingest's supersession searches grew with the square of its size). MATERIALIZED keeps it one row.
 */
const WITH_QUERY = `WITH q AS MATERIALIZED (SELECT to_tsquery('english', array_to_string($2::text[], ' | ')) AS query)`;
// $1 brain, $2 session, $3 the anchor's occurred_at, $4 its id, $5 how many.
const SESSION = 'brain_id = $1 AND session_id = $2';

/** Every statement is named, so each pooled connection prepares it once. */
export const MEMORY_SQL = {
  memoryInsert: `INSERT INTO memories (account_id, ${COLUMNS}) VALUES (${placeholders(MEMORY_COLUMNS.length + 1)})`,
  // Only on a memory still unpromoted and unchanged since it was read (KnowledgeWrite.promotion).
  memoryPromote: `UPDATE memories SET promoted_to = $3, updated_at = $5
    WHERE id = $1 AND account_id = $2 AND promoted_to IS NULL AND updated_at = $4`,
  memoryGet: `SELECT ${COLUMNS} FROM memories WHERE id = $1 AND account_id = $2`,
  memoryGetForUpdate: `SELECT ${COLUMNS} FROM memories WHERE id = $1 AND account_id = $2 FOR UPDATE`,
  memoryList: `SELECT ${COLUMNS} FROM memories WHERE ${FILTERS}
    AND ($12::timestamptz IS NULL OR (created_at, id) < ($12, $13))
    ORDER BY created_at DESC, id DESC LIMIT $10 OFFSET $11`,
  memoryCount: `SELECT count(*)::int AS n FROM memories WHERE ${FILTERS}`,
  memoryUpdate: `UPDATE memories SET content = $3, memory_type = $4, speaker = $5, tags = $6, source_emotion = $7,
      emotional_valence = $8, emotional_intensity = $9, updated_at = $10, occurred_at = $11, session_id = $12,
      superseded_by = $13, superseded_at = $14
    WHERE id = $1 AND account_id = $2`,
  memoryDelete: `DELETE FROM memories WHERE id = $1 AND account_id = $2
    RETURNING brain_id, superseded_by, superseded_at`,
  // A deleted version's place in its chain passes to what replaced it (or to none).
  memoryBridge: `UPDATE memories SET superseded_by = $3, superseded_at = $4 WHERE brain_id = $1 AND superseded_by = $2`,
  memoryReplaced: `SELECT ${COLUMNS} FROM memories WHERE brain_id = $1 AND superseded_by = ANY($2::text[])`,
  // ts_rank's default label weights {0.1, 0.2, 0.4, 1.0}: a word in a tag (A) counts 2.5× one in the content (B).
  memorySearch: `${WITH_QUERY} SELECT ${COLUMNS}, ts_rank(search_vector, q.query, 1) AS relevance FROM memories, q
    WHERE ${SEARCH_FILTERS} AND search_vector @@ q.query
    ORDER BY relevance DESC, created_at DESC, id DESC LIMIT $10`,
  memorySearchCount: `${WITH_QUERY} SELECT count(*)::int AS n FROM memories, q
    WHERE ${SEARCH_FILTERS} AND search_vector @@ q.query`,
  memoryAmong: `${WITH_QUERY} SELECT ${COLUMNS}, search_vector @@ q.query AS matches_text FROM memories, q
    WHERE ${SEARCH_FILTERS} AND id = ANY($10::text[])`,
  memoryBrainSize: 'SELECT count(*)::int AS n FROM memories WHERE brain_id = $1',
  memoryContentLengths: `SELECT count(*)::int AS n, avg(l)::float8 AS mean, avg(l * l)::float8 AS square
    FROM (SELECT length(content)::float8 AS l FROM memories WHERE brain_id = $1
      ORDER BY created_at DESC, id DESC LIMIT $2) newest`,
  memoryTermCount: `SELECT count(*)::int AS n FROM (SELECT 1 FROM memories
    WHERE brain_id = $1 AND search_vector @@ to_tsquery('english', $2) LIMIT $3) f`,
  memoryBefore: `SELECT ${COLUMNS} FROM memories WHERE ${SESSION} AND (occurred_at, id) < ($3, $4)
    ORDER BY occurred_at DESC, id DESC LIMIT $5`,
  memoryAfter: `SELECT ${COLUMNS} FROM memories WHERE ${SESSION} AND (occurred_at, id) > ($3, $4)
    ORDER BY occurred_at, id LIMIT $5`,
  // The brain's memories nearest in time (memories_by_occurrence walks occurred_at; id breaks ties).
  memoryNearestBefore: `SELECT ${COLUMNS} FROM memories WHERE brain_id = $1 AND occurred_at <= $2
      AND (occurred_at < $2 OR id < $3)
    ORDER BY occurred_at DESC, id DESC LIMIT $4`,
  memoryNearestAfter: `SELECT ${COLUMNS} FROM memories WHERE brain_id = $1 AND occurred_at >= $2
      AND (occurred_at > $2 OR id > $3)
    ORDER BY occurred_at, id LIMIT $4`,
  memoryPromotedSnapshots: `SELECT ${SNAPSHOT_COLUMNS.join(', ')} FROM snapshots
    WHERE source_id = $1 AND source_type = 'memory' AND account_id = $2 AND brain_id = $3 ORDER BY created_at, id`,
} as const;

/** The search filters' values, $3 to $9. */
const searchFilters = (f: MemoryFilters) => [
  f.memoryType ?? null,
  f.speaker ?? null,
  f.sessionId ?? null,
  f.since ?? null,
  f.until ?? null,
  ...currentValues(f),
];
/** Current only, and at what instant (any time when `asOf` is absent). */
const currentValues = (f: MemoryFilters) => [f.current !== undefined, f.current?.asOf ?? '9999-12-31T23:59:59.999Z'];

/** A memory's values in the insert's order, after the account id. */
export const memoryValues = (accountId: string, m: Memory): unknown[] => [
  accountId,
  ...MEMORY_COLUMNS.map((c) => (c === 'tags' ? JSON.stringify(m.tags) : m[c])),
];

type Queryable = pg.Pool | pg.PoolClient;

/** Memories on PostgreSQL: a weighted tsvector under GIN for search. */
export class PostgresMemoryStore implements MemoryStore {
  readonly relevanceHasIdf = false; // ts_rank counts a word's occurrences only
  constructor(private readonly pool: pg.Pool) {}

  private query<R extends pg.QueryResultRow>(
    name: keyof typeof MEMORY_SQL,
    values: unknown[],
    db: Queryable = this.pool,
  ) {
    return db.query<R>({ name, text: MEMORY_SQL[name], values });
  }

  async insert(accountId: string, memory: Memory): Promise<void> {
    await this.query('memoryInsert', memoryValues(accountId, memory));
  }

  async get(accountId: string, id: string): Promise<Memory | undefined> {
    return (await this.query<Memory>('memoryGet', [id, accountId])).rows[0];
  }

  async list(query: MemoryQuery): Promise<PageOf<Memory>> {
    const filters = [
      query.brainId,
      query.memoryType ?? null,
      query.speaker ?? null,
      query.tag ?? null,
      query.sessionId ?? null,
      query.since ?? null,
      query.until ?? null,
      ...currentValues(query),
    ];
    const after = [query.after?.created_at ?? null, query.after?.id ?? null];
    const [rows, count] = await Promise.all([
      this.query<Memory>('memoryList', [...filters, query.limit, query.offset, ...after]),
      this.query<{ n: number }>('memoryCount', filters),
    ]);
    return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
  }

  async update(accountId: string, id: string, change: (current: Memory) => Memory): Promise<Memory | undefined> {
    return inTransaction(this.pool, async (client) => {
      const current = (await this.query<Memory>('memoryGetForUpdate', [id, accountId], client)).rows[0];
      if (!current) {
        return undefined;
      }
      const next = change(current);
      await this.query(
        'memoryUpdate',
        [
          id,
          accountId,
          next.content,
          next.memory_type,
          next.speaker,
          JSON.stringify(next.tags),
          next.source_emotion,
          next.emotional_valence,
          next.emotional_intensity,
          next.updated_at,
          next.occurred_at,
          next.session_id,
          next.superseded_by,
          next.superseded_at,
        ],
        client,
      );
      return next;
    });
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      type Gone = Pick<Memory, 'brain_id' | 'superseded_by' | 'superseded_at'>;
      const gone = (await this.query<Gone>('memoryDelete', [id, accountId], client)).rows[0];
      if (!gone) return false;
      await this.query('memoryBridge', [gone.brain_id, id, gone.superseded_by, gone.superseded_at], client);
      return true;
    });
  }

  async replaced(brainId: string, ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    return (await this.query<Memory>('memoryReplaced', [brainId, ids])).rows;
  }

  async search(search: MemorySearch) {
    const parts = tsqueryParts(search.query);
    if (parts.length === 0) return { hits: [], total: 0 };
    const values = [search.brainId, parts, ...searchFilters(search)];
    const [rows, count] = await Promise.all([
      this.query<Memory & { relevance: number }>('memorySearch', [...values, search.limit]),
      search.uncounted ? { rows: [{ n: 0 }] } : this.query<{ n: number }>('memorySearchCount', values),
    ]);
    return {
      hits: rows.rows.map(({ relevance, ...memory }) => ({ memory, relevance })),
      total: count.rows[0]?.n ?? 0,
    };
  }

  async among(search: Omit<MemorySearch, 'limit'>, ids: string[]) {
    const parts = tsqueryParts(search.query);
    if (ids.length === 0 || parts.length === 0) return [];
    const found = await this.query<Memory & { matches_text: boolean }>('memoryAmong', [
      search.brainId,
      parts,
      ...searchFilters(search),
      ids,
    ]);
    return found.rows.map(({ matches_text, ...memory }) => ({ memory, matchesText: matches_text }));
  }

  async termStats(brainId: string, terms: readonly string[], cap: number) {
    const parts = terms.map((term) => tsqueryParts({ terms: [term], prefixes: [], phrases: [] })[0]);
    const [size, ...df] = await Promise.all([
      this.query<{ n: number }>('memoryBrainSize', [brainId]).then((r) => r.rows[0]?.n ?? 0),
      ...parts.map((part) =>
        part === undefined
          ? 0
          : this.query<{ n: number }>('memoryTermCount', [brainId, part, cap]).then((r) => r.rows[0]?.n ?? 0),
      ),
    ]);
    return { size: size as number, df: df as number[] };
  }

  async contentLengths(brainId: string, newest: number) {
    const row = (
      await this.query<{ n: number; mean: number | null; square: number | null }>('memoryContentLengths', [
        brainId,
        newest,
      ])
    ).rows[0];
    return { n: row?.n ?? 0, mean: row?.mean ?? 0, meanSquare: row?.square ?? 0 };
  }

  async sessionContext(brainId: string, anchors: readonly Memory[], n: number) {
    const context = new Map<string, Memory[]>();
    const inSessions = anchors.filter((a, i) => a.session_id !== null && anchors.indexOf(a) === i);
    if (n <= 0 || inSessions.length === 0) return context;
    await Promise.all(
      inSessions.map(async (anchor) => {
        const at = [brainId, anchor.session_id, anchor.occurred_at, anchor.id, n];
        const [before, after] = await Promise.all([
          this.query<Memory>('memoryBefore', at),
          this.query<Memory>('memoryAfter', at),
        ]);
        context.set(anchor.id, [...before.rows.reverse(), ...after.rows]);
      }),
    );
    return context;
  }

  async nearestInTime(brainId: string, anchors: readonly Memory[], n: number) {
    const context = new Map<string, Memory[]>();
    const unsessioned = anchors.filter((a, i) => a.session_id === null && anchors.indexOf(a) === i);
    if (n <= 0 || unsessioned.length === 0) return context;
    await Promise.all(
      unsessioned.map(async (anchor) => {
        const at = [brainId, anchor.occurred_at, anchor.id, n];
        const [before, after] = await Promise.all([
          this.query<Memory>('memoryNearestBefore', at),
          this.query<Memory>('memoryNearestAfter', at),
        ]);
        context.set(anchor.id, [...before.rows.reverse(), ...after.rows]);
      }),
    );
    return context;
  }

  async promotedSnapshots(accountId: string, memory: Pick<Memory, 'id' | 'brain_id'>): Promise<Snapshot[]> {
    return (await this.query<Snapshot>('memoryPromotedSnapshots', [memory.id, accountId, memory.brain_id])).rows;
  }
}
