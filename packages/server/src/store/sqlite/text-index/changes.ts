import type { SqliteDatabase } from '../open-database.js';
import { lazyStatements } from '../lazy-statement.js';
import { indexedValues } from '../search-index-sql.js';
import { decodeStatistics, DOUBLED_WEIGHTS, FTS_STATISTICS_SQL, type FtsStatistics } from './bm25.js';

/**
 * Migration 11: every change to the rows FTS5 indexes is logged, by triggers on
 * `snapshot_search_rows` (which the search-index triggers and the bulk path write whenever a
 * snapshot's searched text is added, changed or removed), so that an index kept in a process
 * sees every writer's changes: this process, the CLI, another server on the same file. The log
 * holds only which row changed; the row itself is read when the change is applied. Its oldest
 * entries are pruned by the build worker after each build, and a chunk a second by any process
 * once it holds more than twice CHANGES_KEPT; the newest is always kept, so `seq` never goes back.
 */
export const SEARCH_CHANGES_SQL = `
  CREATE TABLE search_changes (
    seq          INTEGER PRIMARY KEY,
    search_rowid INTEGER NOT NULL
  ) STRICT;
  CREATE TRIGGER search_rows_added AFTER INSERT ON snapshot_search_rows BEGIN
    INSERT INTO search_changes (search_rowid) VALUES (NEW.rowid);
  END;
  CREATE TRIGGER search_rows_changed AFTER UPDATE ON snapshot_search_rows BEGIN
    INSERT INTO search_changes (search_rowid) VALUES (NEW.rowid);
  END;
  CREATE TRIGGER search_rows_removed AFTER DELETE ON snapshot_search_rows BEGIN
    INSERT INTO search_changes (search_rowid) VALUES (OLD.rowid);
  END;
`;

/** A changed row as it is now: gone, or its brain, type, length and weighted term frequencies. */
export type ChangedRow =
  | { rowid: number; gone: true }
  | { rowid: number; gone: false; brain: string; type: string; length: number; terms: Map<string, number> };

/** The log keeps this many entries, for other processes' indexes that are behind. */
export const CHANGES_KEPT = 100_000;
/** Log entries deleted in one transaction when pruning. */
const PRUNED_AT_ONCE = 10_000;

const TOKENIZER = `tokenize = 'porter unicode61 remove_diacritics 2'`;

/**
 * The change log, and the rows it names read back with FTS5's own tokens: they are inserted
 * into a scratch FTS5 table of the same tokenizer in this connection's temp schema, read back
 * through fts5vocab and removed (about 0.1 ms a snapshot), so that no tokenizer is re-implemented.
 */
export class ChangeLog {
  private readonly stmt;
  private scratchReady = false;

  constructor(private readonly db: SqliteDatabase) {
    const prepared = lazyStatements(db);
    const rowsIn = 'rowid IN (SELECT value FROM json_each(@rowids))';
    this.stmt = {
      latest: prepared<number>('SELECT coalesce(max(seq), 0) FROM search_changes'),
      oldest: prepared<number>('SELECT coalesce(min(seq), 0) FROM search_changes'),
      changedRows: prepared<number>(
        'SELECT DISTINCT search_rowid FROM search_changes WHERE seq > @after AND seq <= @upTo',
      ),
      statistics: prepared<Buffer>(FTS_STATISTICS_SQL),
      prune: prepared<never>(
        `DELETE FROM search_changes
         WHERE seq <= min(@upTo, (SELECT min(seq) FROM search_changes) + ${PRUNED_AT_ONCE} - 1)`,
      ),
      rows: prepared<[number, string, string]>(
        `SELECT rowid, brain_id, type FROM snapshot_search_rows WHERE ${rowsIn}`,
      ),
      // The scratch statements are prepared once the scratch tables exist (prepareScratch).
      fillScratch: prepared<never>(
        `INSERT INTO temp.search_scratch (rowid, name, tags, core, body)
         SELECT r.rowid, ${indexedValues('s')}
         FROM snapshot_search_rows r JOIN snapshots s ON s.id = r.snapshot_id WHERE r.${rowsIn}`,
      ),
      scratchWord: prepared<never>('INSERT INTO temp.search_scratch (rowid, name) VALUES (1, @text)'),
      scratchTokens: prepared<[string, number, string]>('SELECT term, doc, col FROM temp.search_scratch_tokens'),
      scratchWordTerms: prepared<string>('SELECT term FROM temp.search_scratch_tokens ORDER BY offset'),
      emptyScratch: prepared<never>('DELETE FROM temp.search_scratch'),
    };
  }

  latest(): number {
    return this.stmt.latest().pluck().get({}) as number;
  }

  oldest(): number {
    return this.stmt.oldest().pluck().get({}) as number;
  }

  /** FTS5's row count and total tokens, as its bm25 reads them. */
  statistics(): FtsStatistics {
    return decodeStatistics(this.stmt.statistics().pluck().get({}) as Buffer | undefined);
  }

  /** The rows changed after `after`, up to `upTo`, each once. */
  changedRows(after: number, upTo: number): number[] {
    return this.stmt.changedRows().pluck().all({ after, upTo }) as number[];
  }

  /**
   * Forgets the oldest changes, up to `upTo` (never the newest), at most PRUNED_AT_ONCE in one
   * transaction, so that the write lock is held briefly; returns how many it forgot.
   */
  pruneSome(upTo: number): number {
    return this.stmt.prune().run({ upTo: Math.min(upTo, this.latest() - 1) }).changes;
  }

  /** The rows as they are now, with their tokens. Run inside the caller's read transaction. */
  read(rowids: number[]): ChangedRow[] {
    if (rowids.length === 0) return [];
    this.prepareScratch();
    const ids = JSON.stringify(rowids);
    const found = new Map<number, ChangedRow & { gone: false }>();
    for (const [rowid, brain, type] of this.stmt.rows().raw().all({ rowids: ids })) {
      found.set(rowid, { rowid, gone: false, brain, type, length: 0, terms: new Map() });
    }
    this.stmt.fillScratch().run({ rowids: ids });
    try {
      for (const [term, rowid, column] of this.stmt.scratchTokens().raw().iterate({})) {
        const row = found.get(rowid);
        if (row === undefined) continue;
        row.terms.set(term, (row.terms.get(term) ?? 0) + (DOUBLED_WEIGHTS[column] ?? 0));
        row.length++;
      }
    } finally {
      this.stmt.emptyScratch().run({});
    }
    return rowids.map((rowid) => found.get(rowid) ?? { rowid, gone: true });
  }

  /** The terms FTS5 makes of `text`, in order (a query word may make several, or none). */
  termsOf(text: string): string[] {
    this.prepareScratch();
    this.stmt.scratchWord().run({ text });
    try {
      return this.stmt.scratchWordTerms().pluck().all({}) as string[];
    } finally {
      this.stmt.emptyScratch().run({});
    }
  }

  private prepareScratch(): void {
    if (this.scratchReady) return;
    this.db
      .exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scratch USING fts5(name, tags, core, body, ${TOKENIZER});
      CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scratch_tokens USING fts5vocab(temp, search_scratch, 'instance');`);
    this.scratchReady = true;
  }
}
