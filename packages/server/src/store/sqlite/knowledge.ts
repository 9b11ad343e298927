import { notFound } from '../../errors.js';
import type { Capture, CrystallizeRun, Edge, KnowledgeEntry, KnowledgeSource, Page, PageOf } from '../../model.js';
import { canonicalPair } from '../brain-rows.js';
import { SNAPSHOT_COLUMNS } from '../columns.js';
import { JobOutputRefused, jobOutputText } from '../job-store.js';
import { RECORD_JOB_OUTPUT } from './jobs-sql.js';
import type { EntrySearch, KnowledgeStore, KnowledgeWrite, PendingCapture } from '../knowledge-store.js';
import { MemoryPromotionLost } from '../memory-store.js';
import type { GroupCommit } from './group-commit.js';
import { OFF_THREAD_ROWS, rowsOf, type OffThreadWrites } from './off-thread-writes.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { INSERT_MEMORY, memoryToRow, PROMOTE_MEMORY } from './memories.js';
import { snapshotToRow } from './rows.js';
import { ftsExpression } from './search.js';

const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';
const AFTER = '(@after_at IS NULL OR (created_at, id) < (@after_at, @after_id))';
const SOURCE_COLUMNS = `id, brain_id, source_type, title, author, url, domain, tags, snapshot_ids, created_at, updated_at,
  (SELECT count(*) FROM knowledge_entries e WHERE e.source_id = knowledge_sources.id) AS entries_count`;
const ENTRY_COLUMNS = 'id, brain_id, source_id, entry_type, title, content, domain, mastery, created_at, updated_at';

type Json<T, K extends keyof T> = Omit<T, K> & Record<K, string>;
type RunRow = Json<CrystallizeRun, 'snapshot_ids' | 'capture_ids' | 'usage' | 'meta'>;
type CaptureRow = Json<Capture, 'snapshot'> & { source_type: string };
type SourceRow = Json<KnowledgeSource, 'tags' | 'snapshot_ids'>;

const pageParams = (page: Page) => ({
  limit: page.limit,
  offset: page.offset,
  after_at: page.after?.created_at ?? null,
  after_id: page.after?.id ?? null,
});

/** Crystallize runs, captures and specific knowledge on SQLite; every write through group commit. */
export class SqliteKnowledgeStore implements KnowledgeStore {
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly writes: GroupCommit,
    /** Where large writes go, off the event loop; none for an in-memory database. */
    private readonly offThread?: OffThreadWrites,
  ) {
    const prepared = lazyStatements(db);
    const snapshotColumns = ['account_id', ...SNAPSHOT_COLUMNS];
    this.stmt = {
      insertMemory: prepared<never>(INSERT_MEMORY),
      promoteMemory: prepared<never>(PROMOTE_MEMORY),
      insertSnapshot: prepared<never>(
        `INSERT INTO snapshots (${snapshotColumns.join(', ')}) VALUES (${snapshotColumns.map((c) => `@${c}`).join(', ')})`,
      ),
      // As the linker's own insert (links.ts), and the ends must still exist: a snapshot
      // deleted since the edge was proposed drops the edge, not the run.
      insertAutoEdge: prepared<never>(
        `INSERT INTO edges (account_id, id, brain_id, source_id, target_id, edge_type, strength, label, origin, created_at, updated_at)
         SELECT @account_id, @id, @brain_id, @source_id, @target_id, @edge_type, @strength, @label, 'auto', @created_at, @updated_at
         WHERE EXISTS (SELECT 1 FROM snapshots WHERE id = @source_id AND brain_id = @brain_id)
           AND EXISTS (SELECT 1 FROM snapshots WHERE id = @target_id AND brain_id = @brain_id)
           AND NOT EXISTS (SELECT 1 FROM edges WHERE (source_id = @source_id AND target_id = @target_id)
                                                  OR (source_id = @target_id AND target_id = @source_id))
           AND NOT EXISTS (SELECT 1 FROM edge_tombstones WHERE source_id = @pair_source AND target_id = @pair_target
                                                            AND edge_type = @edge_type)
         ON CONFLICT DO NOTHING`,
      ),
      recordJobOutput: prepared<never>(RECORD_JOB_OUTPUT),
      insertRun: prepared<never>(
        `INSERT INTO crystallize_runs (id, account_id, brain_id, status, source_type, agent_id, session_id, snapshot_ids,
           capture_ids, usage, meta, created_at)
         VALUES (@id, @account_id, @brain_id, @status, @source_type, @agent_id, @session_id, @snapshot_ids, @capture_ids,
           @usage, @meta, @created_at)`,
      ),
      getRun: prepared<RunRow>(
        `SELECT id, brain_id, status, source_type, agent_id, session_id, snapshot_ids, capture_ids, usage, meta, created_at
         FROM crystallize_runs WHERE id = @id AND account_id = @account_id`,
      ),
      insertCapture: prepared<never>(
        `INSERT INTO captures (id, account_id, brain_id, run_id, snapshot, created_at)
         VALUES (@id, @account_id, @brain_id, @run_id, @snapshot, @created_at)`,
      ),
      getPendingCapture: prepared<CaptureRow>(
        `SELECT c.id, c.run_id, c.brain_id, c.snapshot, c.created_at, r.source_type
         FROM captures c JOIN crystallize_runs r ON r.id = c.run_id
         WHERE c.id = @id AND c.account_id = @account_id AND c.status = 'pending'`,
      ),
      decide: prepared<never>(
        `UPDATE captures SET status = @status, snapshot_id = @snapshot_id, resolved_at = @at
         WHERE id = @id AND account_id = @account_id AND status = 'pending'`,
      ),
      listCaptures: prepared<CaptureRow>(
        `SELECT id, run_id, brain_id, snapshot, created_at FROM captures
         WHERE brain_id = @brain_id AND status = 'pending' AND ${AFTER} ${NEWEST_FIRST} LIMIT @limit OFFSET @offset`,
      ),
      countCaptures: prepared<{ n: number }>(
        `SELECT count(*) AS n FROM captures WHERE brain_id = @brain_id AND status = 'pending'`,
      ),
      insertSource: prepared<never>(
        `INSERT INTO knowledge_sources (id, account_id, brain_id, source_type, title, author, url, domain, tags,
           snapshot_ids, created_at, updated_at)
         VALUES (@id, @account_id, @brain_id, @source_type, @title, @author, @url, @domain, @tags, @snapshot_ids,
           @created_at, @updated_at)`,
      ),
      getSource: prepared<SourceRow>(
        `SELECT ${SOURCE_COLUMNS} FROM knowledge_sources WHERE id = @id AND account_id = @account_id`,
      ),
      listSources: prepared<SourceRow>(
        `SELECT ${SOURCE_COLUMNS} FROM knowledge_sources
         WHERE brain_id = @brain_id AND ${AFTER} ${NEWEST_FIRST} LIMIT @limit OFFSET @offset`,
      ),
      countSources: prepared<{ n: number }>(`SELECT count(*) AS n FROM knowledge_sources WHERE brain_id = @brain_id`),
      deleteSource: prepared<never>(`DELETE FROM knowledge_sources WHERE id = @id AND account_id = @account_id`),
      insertEntry: prepared<never>(
        `INSERT INTO knowledge_entries (id, account_id, brain_id, source_id, position, entry_type, title, content, domain,
           mastery, created_at, updated_at)
         VALUES (@id, @account_id, @brain_id, @source_id, @position, @entry_type, @title, @content, @domain, @mastery,
           @created_at, @updated_at)`,
      ),
      entriesOf: prepared<KnowledgeEntry>(
        `SELECT ${ENTRY_COLUMNS} FROM knowledge_entries WHERE source_id = @source_id ORDER BY position`,
      ),
      getEntry: prepared<KnowledgeEntry>(
        `SELECT ${ENTRY_COLUMNS} FROM knowledge_entries WHERE id = @id AND account_id = @account_id`,
      ),
      updateEntry: prepared<never>(
        `UPDATE knowledge_entries SET title = @title, content = @content, domain = @domain, mastery = @mastery,
           updated_at = @updated_at WHERE id = @id AND account_id = @account_id`,
      ),
      searchEntries: prepared<KnowledgeEntry & { relevance: number }>(
        `SELECT ${ENTRY_COLUMNS.split(', ')
          .map((c) => `e.${c}`)
          .join(', ')}, -bm25(knowledge_entry_search, 2, 1) AS relevance
         FROM knowledge_entry_search JOIN knowledge_entries e ON e.rowid = knowledge_entry_search.rowid
         WHERE knowledge_entry_search MATCH @match AND e.brain_id = @brain_id
           AND (@domain IS NULL OR e.domain = @domain) AND (@entry_type IS NULL OR e.entry_type = @entry_type)
         ORDER BY relevance DESC, e.created_at DESC, e.id DESC`,
      ),
    };
  }

  write(accountId: string, w: KnowledgeWrite): Promise<{ edges: Edge[] }> {
    // A decision or promotion is small and answers with this process's own errors: kept here.
    if (this.offThread && !w.decision && !w.promotion && rowsOf(w) >= OFF_THREAD_ROWS) {
      return this.offThread.write(accountId, w);
    }
    return this.writes.run(() => this.apply(accountId, w, 0));
  }

  /**
   * One slice of a large write (see writeInSlices), in a transaction of its own; its entries'
   * positions start at `entryOffset`, where the slice before it ended.
   */
  writeSlice(accountId: string, w: KnowledgeWrite, entryOffset: number): Promise<{ edges: Edge[] }> {
    return this.writes.runAlone(() => this.apply(accountId, w, entryOffset));
  }

  private apply(accountId: string, w: KnowledgeWrite, entryOffset: number): { edges: Edge[] } {
    const account_id = accountId;
    {
      if (w.decision) {
        const decided = this.stmt.decide().run({ ...w.decision, snapshot_id: w.decision.snapshotId, account_id });
        if (decided.changes === 0) throw notFound('capture');
      }
      if (w.promotion) {
        const p = w.promotion;
        const promoted = this.stmt
          .promoteMemory()
          .run({ id: p.memoryId, account_id, snapshot_id: p.snapshotId, read_at: p.readAt, at: p.at });
        if (promoted.changes === 0) throw new MemoryPromotionLost();
      }
      for (const memory of w.memories ?? []) this.stmt.insertMemory().run(memoryToRow(accountId, memory));
      for (const snapshot of w.snapshots ?? []) this.stmt.insertSnapshot().run(snapshotToRow(accountId, snapshot));
      if (w.run) {
        const run = w.run;
        this.stmt.insertRun().run({
          ...run,
          account_id,
          snapshot_ids: JSON.stringify(run.snapshot_ids),
          capture_ids: JSON.stringify(run.capture_ids),
          usage: JSON.stringify(run.usage),
          meta: JSON.stringify(run.meta),
        });
      }
      for (const capture of w.captures ?? []) {
        this.stmt.insertCapture().run({ ...capture, account_id, snapshot: JSON.stringify(capture.snapshot) });
      }
      if (w.source) {
        const source = w.source;
        this.stmt.insertSource().run({
          ...source,
          account_id,
          tags: JSON.stringify(source.tags),
          snapshot_ids: JSON.stringify(source.snapshot_ids),
        });
      }
      (w.entries ?? []).forEach((entry, i) =>
        this.stmt.insertEntry().run({ ...entry, account_id, position: entryOffset + i }),
      );
      const edges = (w.autoEdges ?? []).filter((edge) => {
        const [pair_source, pair_target] = canonicalPair(edge);
        return this.stmt.insertAutoEdge().run({ ...edge, account_id, pair_source, pair_target }).changes > 0;
      });
      if (w.job) {
        const written = jobOutputText(w.job, edges);
        const recorded = this.stmt.recordJobOutput().run({ id: w.job.id, owner: w.job.owner, written });
        if (recorded.changes === 0) throw new JobOutputRefused(w.job.id);
      }
      return { edges };
    }
  }

  async getRun(accountId: string, id: string): Promise<CrystallizeRun | undefined> {
    const row = this.stmt.getRun().get({ id, account_id: accountId });
    return row && runFromRow(row);
  }

  async getPendingCapture(accountId: string, id: string): Promise<PendingCapture | undefined> {
    const row = this.stmt.getPendingCapture().get({ id, account_id: accountId });
    return row && { capture: captureFromRow(row), sourceType: row.source_type };
  }

  async listPendingCaptures(brainId: string, page: Page): Promise<PageOf<Capture>> {
    const rows = this.stmt.listCaptures().all({ brain_id: brainId, ...pageParams(page) });
    const total = this.stmt.countCaptures().get({ brain_id: brainId })?.n ?? 0;
    return { rows: rows.map(captureFromRow), total };
  }

  async getSource(accountId: string, id: string): Promise<KnowledgeSource | undefined> {
    const row = this.stmt.getSource().get({ id, account_id: accountId });
    return row && sourceFromRow(row);
  }

  async listSources(brainId: string, page: Page): Promise<PageOf<KnowledgeSource>> {
    const rows = this.stmt.listSources().all({ brain_id: brainId, ...pageParams(page) });
    const total = this.stmt.countSources().get({ brain_id: brainId })?.n ?? 0;
    return { rows: rows.map(sourceFromRow), total };
  }

  async entriesOf(sourceId: string): Promise<KnowledgeEntry[]> {
    return this.stmt.entriesOf().all({ source_id: sourceId });
  }

  deleteSource(accountId: string, id: string): Promise<boolean> {
    return this.writes.run(() => this.stmt.deleteSource().run({ id, account_id: accountId }).changes > 0);
  }

  async getEntry(accountId: string, id: string): Promise<KnowledgeEntry | undefined> {
    return this.stmt.getEntry().get({ id, account_id: accountId });
  }

  updateEntry(
    accountId: string,
    id: string,
    change: (current: KnowledgeEntry) => KnowledgeEntry,
  ): Promise<KnowledgeEntry | undefined> {
    return this.writes.run(() => {
      const current = this.stmt.getEntry().get({ id, account_id: accountId });
      if (!current) return undefined;
      const next = change(current);
      this.stmt.updateEntry().run({ ...next, account_id: accountId });
      return next;
    });
  }

  async searchEntries(search: EntrySearch) {
    const match = ftsExpression({ brainId: search.brainId }, search.query);
    if (match === undefined) return { hits: [], total: 0 };
    const rows = this.stmt.searchEntries().all({
      match,
      brain_id: search.brainId,
      domain: search.domain ?? null,
      entry_type: search.entryType ?? null,
    });
    return {
      hits: rows.slice(0, search.limit).map(({ relevance, ...entry }) => ({ entry, relevance })),
      total: rows.length,
    };
  }
}

function runFromRow(row: RunRow): CrystallizeRun {
  return {
    ...row,
    snapshot_ids: JSON.parse(row.snapshot_ids) as string[],
    capture_ids: JSON.parse(row.capture_ids) as string[],
    usage: JSON.parse(row.usage) as CrystallizeRun['usage'],
    meta: JSON.parse(row.meta) as CrystallizeRun['meta'],
  };
}

function captureFromRow(row: CaptureRow): Capture {
  return {
    id: row.id,
    run_id: row.run_id,
    brain_id: row.brain_id,
    snapshot: JSON.parse(row.snapshot) as Capture['snapshot'],
    created_at: row.created_at,
  };
}

function sourceFromRow(row: SourceRow): KnowledgeSource {
  return {
    ...row,
    tags: JSON.parse(row.tags) as string[],
    snapshot_ids: JSON.parse(row.snapshot_ids) as string[],
  };
}
