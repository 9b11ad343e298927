import type { Memory, PageOf, Snapshot } from '../../model.js';
import { MEMORY_COLUMNS, SNAPSHOT_COLUMNS } from '../columns.js';
import type { MemoryQuery, MemorySearch, MemoryStore, MemoryWordIndex, WordIndexBuilt } from '../memory-store.js';
import type { GroupCommit } from './group-commit.js';
import { lazyStatements } from './lazy-statement.js';
import { sqliteTextFeed } from './memory-word-index/feed.js';
import type { MemoryTextFeed } from './memory-word-index/feed-types.js';
import { onWordIndexBuilt, wordIndexOf } from './memory-word-index/index.js';
import { COLUMNS, filterValues, memoryFilters, memoryFromRow, memoryToRow, type MemoryRow } from './memory-rows.js';
import { SqliteMemorySearch } from './memory-search.js';
import type { SqliteDatabase } from './open-database.js';
import { snapshotFromRow, type SnapshotRow } from './rows.js';
import { BRIDGE_SUPERSESSION, REPLACED_MEMORIES } from './supersession-sql.js';

export { memoryToRow } from './memory-rows.js';

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
const FILTERS = `brain_id = @brain_id AND (@memory_type IS NULL OR memory_type = @memory_type) AND ${memoryFilters('memories')}
  AND (@tag IS NULL OR EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE json_each.value = @tag))`;
const AFTER = '(@after_at IS NULL OR (created_at, id) < (@after_at, @after_id))';

/**
 * Memories on SQLite: every write through group commit; reads by words and by place in
 * memory-search.ts, and an in-process word index of each brain fed by memory-word-index/feed.ts.
 */
export class SqliteMemoryStore implements MemoryStore {
  readonly relevanceHasIdf = true; // FTS5's bm25
  private readonly stmt;
  private readonly reads: SqliteMemorySearch;
  private readonly textFeed: MemoryTextFeed;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly writes: GroupCommit,
    /** The database file, for the word index's builds in a worker; none for a database in memory. */
    path?: string,
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
      bridge: prepared<never>(BRIDGE_SUPERSESSION),
      replaced: prepared<MemoryRow>(REPLACED_MEMORIES),
      promotedSnapshots: prepared<SnapshotRow>(
        `SELECT ${SNAPSHOT_COLUMNS.join(', ')} FROM snapshots
         WHERE source_id = @source_id AND source_type = 'memory' AND account_id = @account_id
           AND brain_id = @brain_id
         ORDER BY created_at, id`,
      ),
    };
    this.reads = new SqliteMemorySearch(db);
    this.textFeed = sqliteTextFeed(db, this.reads, path);
  }

  wordIndex(brainId: string): MemoryWordIndex | undefined {
    return wordIndexOf(this.textFeed, brainId);
  }

  onWordIndexBuilt(listener: (event: WordIndexBuilt) => void): void {
    onWordIndexBuilt(this.textFeed, listener);
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

  search(search: MemorySearch) {
    return this.reads.search(search);
  }

  among(search: Omit<MemorySearch, 'limit'>, ids: string[]) {
    return this.reads.among(search, ids);
  }

  termStats(brainId: string, terms: readonly string[], cap: number) {
    return this.reads.termStats(brainId, terms, cap);
  }

  contentLengths(brainId: string, newest: number) {
    return this.reads.contentLengths(brainId, newest);
  }

  sessionContext(brainId: string, anchors: readonly Memory[], n: number) {
    return this.reads.sessionContext(brainId, anchors, n);
  }

  nearestInTime(brainId: string, anchors: readonly Memory[], n: number) {
    return this.reads.nearestInTime(brainId, anchors, n);
  }

  async promotedSnapshots(accountId: string, memory: Pick<Memory, 'id' | 'brain_id'>): Promise<Snapshot[]> {
    return this.stmt
      .promotedSnapshots()
      .all({ source_id: memory.id, account_id: accountId, brain_id: memory.brain_id })
      .map(snapshotFromRow);
  }
}
