import type pg from 'pg';
import { inTransaction } from './queries.js';
import { notFound } from '../../errors.js';
import type { Capture, CrystallizeRun, Edge, KnowledgeEntry, KnowledgeSource, Page, PageOf } from '../../model.js';
import { canonicalPair } from '../brain-rows.js';
import { MEMORY_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import { JobOutputRefused, jobOutputText } from '../job-store.js';
import { RECORD_JOB_OUTPUT } from './jobs-sql.js';
import type { EntrySearch, KnowledgeStore, KnowledgeWrite, PendingCapture } from '../knowledge-store.js';
import { MemoryPromotionLost } from '../memory-store.js';
import { MEMORY_SQL } from './memories.js';
import { tsqueryParts } from './search.js';

const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';
const SOURCE_COLUMNS = `id, brain_id, source_type, title, author, url, domain, tags, snapshot_ids, created_at, updated_at,
  (SELECT count(*) FROM knowledge_entries e WHERE e.source_id = knowledge_sources.id)::int AS entries_count`;
const ENTRY_COLUMNS = 'id, brain_id, source_id, entry_type, title, content, domain, mastery, created_at, updated_at';
const placeholders = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(', ');

/** Every statement is named, so each pooled connection prepares it once. */
const SQL = {
  knowledgeRecordJobOutput: RECORD_JOB_OUTPUT,
  knowledgeInsertRun: `INSERT INTO crystallize_runs (id, account_id, brain_id, status, source_type, agent_id, session_id,
      snapshot_ids, capture_ids, usage, meta, created_at) VALUES (${placeholders(12)})`,
  knowledgeGetRun: `SELECT id, brain_id, status, source_type, agent_id, session_id, snapshot_ids, capture_ids, usage, meta, created_at
    FROM crystallize_runs WHERE id = $1 AND account_id = $2`,
  knowledgeInsertCapture: `INSERT INTO captures (id, account_id, brain_id, run_id, snapshot, created_at) VALUES (${placeholders(6)})`,
  knowledgeGetPendingCapture: `SELECT c.id, c.run_id, c.brain_id, c.snapshot, c.created_at, r.source_type
    FROM captures c JOIN crystallize_runs r ON r.id = c.run_id
    WHERE c.id = $1 AND c.account_id = $2 AND c.status = 'pending'`,
  knowledgeDecide: `UPDATE captures SET status = $3, snapshot_id = $4, resolved_at = $5
    WHERE id = $1 AND account_id = $2 AND status = 'pending'`,
  knowledgeListCaptures: `SELECT id, run_id, brain_id, snapshot, created_at FROM captures
    WHERE brain_id = $1 AND status = 'pending' AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5))
    ${NEWEST_FIRST} LIMIT $2 OFFSET $3`,
  knowledgeCountCaptures: `SELECT count(*)::int AS n FROM captures WHERE brain_id = $1 AND status = 'pending'`,
  knowledgeInsertSource: `INSERT INTO knowledge_sources (id, account_id, brain_id, source_type, title, author, url, domain,
      tags, snapshot_ids, created_at, updated_at) VALUES (${placeholders(12)})`,
  knowledgeGetSource: `SELECT ${SOURCE_COLUMNS} FROM knowledge_sources WHERE id = $1 AND account_id = $2`,
  knowledgeListSources: `SELECT ${SOURCE_COLUMNS} FROM knowledge_sources
    WHERE brain_id = $1 AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5)) ${NEWEST_FIRST} LIMIT $2 OFFSET $3`,
  knowledgeCountSources: `SELECT count(*)::int AS n FROM knowledge_sources WHERE brain_id = $1`,
  knowledgeDeleteSource: `DELETE FROM knowledge_sources WHERE id = $1 AND account_id = $2`,
  knowledgeEntriesOf: `SELECT ${ENTRY_COLUMNS} FROM knowledge_entries WHERE source_id = $1 ORDER BY position`,
  knowledgeGetEntry: `SELECT ${ENTRY_COLUMNS} FROM knowledge_entries WHERE id = $1 AND account_id = $2`,
  knowledgeGetEntryForUpdate: `SELECT ${ENTRY_COLUMNS} FROM knowledge_entries WHERE id = $1 AND account_id = $2 FOR UPDATE`,
  knowledgeUpdateEntry: `UPDATE knowledge_entries SET title = $3, content = $4, domain = $5, mastery = $6, updated_at = $7
    WHERE id = $1 AND account_id = $2`,
  // The query parsed once (MATERIALIZED), not again for every entry (memories.ts, WITH_QUERY).
  knowledgeSearchEntries: `WITH q AS MATERIALIZED (SELECT to_tsquery('english', array_to_string($2::text[], ' | ')) AS query)
    SELECT ${ENTRY_COLUMNS}, ts_rank(search_vector, q.query, 1) AS relevance FROM knowledge_entries, q
    WHERE brain_id = $1 AND search_vector @@ q.query AND ($3::text IS NULL OR domain = $3)
      AND ($4::text IS NULL OR entry_type = $4)
    ORDER BY relevance DESC, created_at DESC, id DESC`,
} as const;

type Queryable = pg.Pool | pg.PoolClient;

/** Crystallize runs, captures and specific knowledge on PostgreSQL. */
const ENTRIES_PER_STATEMENT = 1000;

/**
 * A run's memories or snapshots, a statement per thousand rather than per row (as the entries
 * below): the rows as one JSON array made records of the table's own type, which converts every
 * column (the import writes rows so too). A 1 MB ingest writes about 10,000 of them (issue 46).
 */
async function insertRows(
  client: pg.PoolClient,
  table: 'memories' | 'snapshots',
  columns: readonly string[],
  accountId: string,
  rows: readonly object[],
): Promise<void> {
  const list = ['account_id', ...columns].join(', ');
  for (let at = 0; at < rows.length; at += ENTRIES_PER_STATEMENT) {
    const slice = rows.slice(at, at + ENTRIES_PER_STATEMENT).map((row) => ({ ...row, account_id: accountId }));
    await client.query(
      `INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      [JSON.stringify(slice)],
    );
  }
}
const ENTRY_INSERT_COLUMNS =
  'id, account_id, brain_id, source_id, position, entry_type, title, content, domain, mastery, created_at, updated_at';
/** Entries as one JSON array, made records of the table's own type (as the import writes rows). */
const INSERT_ENTRIES = `INSERT INTO knowledge_entries (${ENTRY_INSERT_COLUMNS})
  SELECT ${ENTRY_INSERT_COLUMNS} FROM json_populate_recordset(NULL::knowledge_entries, $1::json)`;

/**
 * Automatic edges as one JSON array, each inserted as the linker's insert (links.ts) would insert
 * it alone, in order: not when its ends are gone (a snapshot deleted since the edge was proposed
 * drops the edge, not the run), the pair is linked already in either direction, or the user
 * deleted that (pair, type); and of the array's own edges on one pair, only the first that may
 * be. A statement per thousand edges rather than per edge: a 1 MB document's 9,000 edges took
 * 9,000 round trips, 18–21 s of its 32–37 s on PostgreSQL (issue 46). The ends are looked up
 * by id, one row each, as subqueries the planner cannot turn into a join: the run's snapshots,
 * written in this transaction, are not in the table's statistics, and a join planned on them
 * read every snapshot of the brain once per edge (0.45 s a thousand). RETURNING: the inserted.
 */
const INSERT_AUTO_EDGES = `WITH proposed AS (
    SELECT * FROM json_to_recordset($2::json) AS p(at int, id text, brain_id text, source_id text, target_id text,
      edge_type text, strength float8, label text, created_at timestamptz, updated_at timestamptz,
      pair_source text, pair_target text)
  ), allowed AS (
    SELECT DISTINCT ON (least(p.source_id, p.target_id) COLLATE "C", greatest(p.source_id, p.target_id) COLLATE "C") p.*
    FROM proposed p
    WHERE (SELECT brain_id FROM snapshots WHERE id = p.source_id) = p.brain_id
      AND (SELECT brain_id FROM snapshots WHERE id = p.target_id) = p.brain_id
      AND NOT EXISTS (SELECT 1 FROM edges e WHERE (e.source_id = p.source_id AND e.target_id = p.target_id)
        OR (e.source_id = p.target_id AND e.target_id = p.source_id))
      AND NOT EXISTS (SELECT 1 FROM edge_tombstones t
        WHERE t.source_id = p.pair_source AND t.target_id = p.pair_target AND t.edge_type = p.edge_type)
    ORDER BY least(p.source_id, p.target_id) COLLATE "C", greatest(p.source_id, p.target_id) COLLATE "C", p.at
  )
  INSERT INTO edges (account_id, id, brain_id, source_id, target_id, edge_type, strength, label, origin, created_at, updated_at)
  SELECT $1, id, brain_id, source_id, target_id, edge_type, strength, label, 'auto', created_at, updated_at FROM allowed
  ON CONFLICT DO NOTHING
  RETURNING id`;
const AUTO_EDGES_PER_STATEMENT = 1000;

export class PostgresKnowledgeStore implements KnowledgeStore {
  constructor(private readonly pool: pg.Pool) {}

  private async query<R extends pg.QueryResultRow>(
    name: keyof typeof SQL,
    values: unknown[],
    db: Queryable = this.pool,
  ) {
    return db.query<R>({ name, text: SQL[name], values });
  }

  async write(accountId: string, w: KnowledgeWrite): Promise<{ edges: Edge[] }> {
    return inTransaction(this.pool, async (client) => {
      const run = (name: keyof typeof SQL, values: unknown[]) => this.query(name, values, client);
      const memory = (name: keyof typeof MEMORY_SQL, values: unknown[]) =>
        client.query({ name, text: MEMORY_SQL[name], values });
      if (w.decision) {
        const d = w.decision;
        const decided = await run('knowledgeDecide', [d.id, accountId, d.status, d.snapshotId, d.at]);
        if ((decided.rowCount ?? 0) === 0) throw notFound('capture');
      }
      if (w.promotion) {
        const p = w.promotion;
        const promoted = await memory('memoryPromote', [p.memoryId, accountId, p.snapshotId, p.readAt, p.at]);
        if ((promoted.rowCount ?? 0) === 0) throw new MemoryPromotionLost();
      }
      await insertRows(client, 'memories', MEMORY_COLUMNS, accountId, w.memories ?? []);
      await insertRows(client, 'snapshots', SNAPSHOT_COLUMNS, accountId, w.snapshots ?? []);
      if (w.run) {
        const r = w.run;
        await run('knowledgeInsertRun', [
          r.id,
          accountId,
          r.brain_id,
          r.status,
          r.source_type,
          r.agent_id,
          r.session_id,
          JSON.stringify(r.snapshot_ids),
          JSON.stringify(r.capture_ids),
          JSON.stringify(r.usage),
          JSON.stringify(r.meta),
          r.created_at,
        ]);
      }
      for (const c of w.captures ?? []) {
        await run('knowledgeInsertCapture', [
          c.id,
          accountId,
          c.brain_id,
          c.run_id,
          JSON.stringify(c.snapshot),
          c.created_at,
        ]);
      }
      if (w.source) {
        const s = w.source;
        await run('knowledgeInsertSource', [
          s.id,
          accountId,
          s.brain_id,
          s.source_type,
          s.title,
          s.author,
          s.url,
          s.domain,
          JSON.stringify(s.tags),
          JSON.stringify(s.snapshot_ids),
          s.created_at,
          s.updated_at,
        ]);
      }
      // A statement per thousand entries, not per entry: a 1 MB document's 12,000 entries took
      // 12,000 round trips (issue 46).
      const entries = (w.entries ?? []).map((e, position) => ({ ...e, account_id: accountId, position }));
      for (let at = 0; at < entries.length; at += ENTRIES_PER_STATEMENT) {
        await client.query(INSERT_ENTRIES, [JSON.stringify(entries.slice(at, at + ENTRIES_PER_STATEMENT))]);
      }
      const edges: Edge[] = [];
      const autoEdges = w.autoEdges ?? [];
      for (let at = 0; at < autoEdges.length; at += AUTO_EDGES_PER_STATEMENT) {
        const batch = autoEdges.slice(at, at + AUTO_EDGES_PER_STATEMENT);
        const rows = batch.map((e, i) => {
          const [pair_source, pair_target] = canonicalPair(e);
          return { ...e, at: i, pair_source, pair_target };
        });
        const inserted = await client.query<{ id: string }>(INSERT_AUTO_EDGES, [accountId, JSON.stringify(rows)]);
        const ids = new Set(inserted.rows.map((row) => row.id));
        edges.push(...batch.filter((e) => ids.has(e.id)));
      }
      if (w.job) {
        const written = jobOutputText(w.job, edges);
        const recorded = await run('knowledgeRecordJobOutput', [w.job.id, w.job.owner, written]);
        if ((recorded.rowCount ?? 0) === 0) throw new JobOutputRefused(w.job.id);
      }
      return { edges };
    });
  }

  async getRun(accountId: string, id: string): Promise<CrystallizeRun | undefined> {
    return (await this.query<CrystallizeRun>('knowledgeGetRun', [id, accountId])).rows[0];
  }

  async getPendingCapture(accountId: string, id: string): Promise<PendingCapture | undefined> {
    const row = (await this.query<Capture & { source_type: string }>('knowledgeGetPendingCapture', [id, accountId]))
      .rows[0];
    if (!row) return undefined;
    const { source_type, ...capture } = row;
    return { capture, sourceType: source_type };
  }

  async listPendingCaptures(brainId: string, page: Page): Promise<PageOf<Capture>> {
    const [rows, count] = await Promise.all([
      this.query<Capture>('knowledgeListCaptures', [brainId, ...pageValues(page)]),
      this.query<{ n: number }>('knowledgeCountCaptures', [brainId]),
    ]);
    return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
  }

  async getSource(accountId: string, id: string): Promise<KnowledgeSource | undefined> {
    return (await this.query<KnowledgeSource>('knowledgeGetSource', [id, accountId])).rows[0];
  }

  async listSources(brainId: string, page: Page): Promise<PageOf<KnowledgeSource>> {
    const [rows, count] = await Promise.all([
      this.query<KnowledgeSource>('knowledgeListSources', [brainId, ...pageValues(page)]),
      this.query<{ n: number }>('knowledgeCountSources', [brainId]),
    ]);
    return { rows: rows.rows, total: count.rows[0]?.n ?? 0 };
  }

  async entriesOf(sourceId: string): Promise<KnowledgeEntry[]> {
    return (await this.query<KnowledgeEntry>('knowledgeEntriesOf', [sourceId])).rows;
  }

  async deleteSource(accountId: string, id: string): Promise<boolean> {
    return ((await this.query('knowledgeDeleteSource', [id, accountId])).rowCount ?? 0) > 0;
  }

  async getEntry(accountId: string, id: string): Promise<KnowledgeEntry | undefined> {
    return (await this.query<KnowledgeEntry>('knowledgeGetEntry', [id, accountId])).rows[0];
  }

  async updateEntry(
    accountId: string,
    id: string,
    change: (current: KnowledgeEntry) => KnowledgeEntry,
  ): Promise<KnowledgeEntry | undefined> {
    return inTransaction(this.pool, async (client) => {
      const current = (await this.query<KnowledgeEntry>('knowledgeGetEntryForUpdate', [id, accountId], client)).rows[0];
      if (!current) {
        return undefined;
      }
      const next = change(current);
      await this.query(
        'knowledgeUpdateEntry',
        [id, accountId, next.title, next.content, next.domain, next.mastery, next.updated_at],
        client,
      );
      return next;
    });
  }

  async searchEntries(search: EntrySearch) {
    const parts = tsqueryParts(search.query);
    if (parts.length === 0) return { hits: [], total: 0 };
    const { rows } = await this.query<KnowledgeEntry & { relevance: number }>('knowledgeSearchEntries', [
      search.brainId,
      parts,
      search.domain ?? null,
      search.entryType ?? null,
    ]);
    return {
      hits: rows.slice(0, search.limit).map(({ relevance, ...entry }) => ({ entry, relevance })),
      total: rows.length,
    };
  }
}

const pageValues = (page: Page) => [page.limit, page.offset, page.after?.created_at ?? null, page.after?.id ?? null];
