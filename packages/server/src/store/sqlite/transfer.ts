import Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  ColumnKind,
  ImportCheckpoint,
  Row,
  TableShape,
  TransferReader,
  TransferStore,
} from '../transfer-store.js';
import { JobOutputRefused, jobOutputText, type JobWrite } from '../job-store.js';
import { RECORD_JOB_OUTPUT } from './jobs-sql.js';
import { DEFERRED_UPKEEP } from './deferred-upkeep-sql.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';

/** The import's marker in deferred_upkeep. */
const IMPORT_WRITER = 'import';

/** Rows handed out between two turns of the event loop, so a long export never starves requests. */
const ROWS_PER_TURN = 1000;

/** A stored value as the plain value of its column kind (booleans are 0/1, JSON is text). */
function fromSqlite(shape: TableShape, row: Row): Row {
  for (const [column, kind] of Object.entries(shape.columns)) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    if (kind === 'boolean') row[column] = value === 1;
    else if (kind === 'json') row[column] = JSON.parse(value as string);
  }
  return row;
}

/** A row's values in the order of the shape's columns, as SQLite binds them (positional: cheaper than named). */
function toSqlite(columns: [string, ColumnKind][], row: Row): unknown[] {
  const out = new Array<unknown>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const [column, kind] = columns[i] as [string, ColumnKind];
    const value = row[column] ?? null;
    out[i] =
      value === null ? null : kind === 'boolean' ? (value ? 1 : 0) : kind === 'json' ? JSON.stringify(value) : value;
  }
  return out;
}

/**
 * Export reads through a connection of its own, in one read transaction: with WAL, it sees one
 * moment of the database from start to end while writers go on, and its open cursor (an
 * iterating statement keeps a better-sqlite3 connection busy) never blocks the store's own.
 */
class SqliteReader implements TransferReader {
  private readonly db: SqliteDatabase;

  constructor(path: string) {
    this.db = new Database(path, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('BEGIN');
  }

  async *rows(shape: TableShape, brainId: string): AsyncIterable<Row> {
    const columns = Object.keys(shape.columns).join(', ');
    const statement = this.db.prepare<[string], Row>(
      `SELECT ${columns} FROM ${shape.table} WHERE ${shape.brainColumn} = ? ORDER BY ${shape.orderBy.join(', ')}`,
    );
    let sinceTurn = 0;
    for (const row of statement.iterate(brainId)) {
      yield fromSqlite(shape, row);
      if (++sinceTurn === ROWS_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

export class SqliteTransferStore implements TransferStore {
  private readonly inserts = new Map<string, { statement: Database.Statement; columns: [string, ColumnKind][] }>();
  private readonly upkeep = new Map<string, Database.Statement[]>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly writes: GroupCommit,
    private readonly path: string,
  ) {}

  async openReader(): Promise<TransferReader> {
    // The store's writes queued so far are committed first, so the export sees them.
    this.writes.flush();
    return new SqliteReader(this.path);
  }

  private insertOf(shape: TableShape) {
    let insert = this.inserts.get(shape.table);
    if (insert === undefined) {
      const columns = Object.entries(shape.columns);
      const statement = this.db.prepare(
        `INSERT INTO ${shape.table} (${columns.map(([c]) => c).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
         ON CONFLICT DO NOTHING`,
      );
      insert = { statement, columns };
      this.inserts.set(shape.table, insert);
    }
    return insert;
  }

  /** The statements doing, for a batch of rows of `table`, the upkeep its insert triggers defer. */
  private upkeepOf(table: string): Database.Statement[] {
    let statements = this.upkeep.get(table);
    if (statements === undefined) {
      statements = (DEFERRED_UPKEEP[table] ?? []).map((sql) => this.db.prepare(sql));
      this.upkeep.set(table, statements);
    }
    return statements;
  }

  async writeRows(
    batches: { shape: TableShape; rows: Row[] }[],
    checkpoint: ImportCheckpoint,
    job?: JobWrite,
  ): Promise<void> {
    await this.writes.runAlone(() => {
      // Seen by this transaction only: the triggers leave the search index and counts to the
      // statements below, one per batch instead of several per row (deferred-upkeep-sql.ts).
      this.db.prepare('INSERT INTO deferred_upkeep (writer) VALUES (?)').run(IMPORT_WRITER);
      for (const { shape, rows } of batches) {
        const { statement, columns } = this.insertOf(shape);
        const upkeep = this.upkeepOf(shape.table);
        // Only the rows inserted: those already there (the same brain imported from another file) were
        // indexed and counted when they were written.
        const insertedIds: unknown[] = [];
        for (const row of rows) {
          if (statement.run(toSqlite(columns, row)).changes > 0 && upkeep.length > 0) insertedIds.push(row.id);
        }
        if (insertedIds.length > 0) {
          const ids = JSON.stringify(insertedIds);
          for (const step of upkeep) step.run({ ids });
        }
        if (shape.dropsAutoLinkWork) {
          this.db
            .prepare(
              `DELETE FROM background_work WHERE kind = 'auto_link' AND brain_id = ? AND subject_id IN (SELECT value FROM json_each(?))`,
            )
            .run(rows[0]?.[shape.brainColumn], JSON.stringify(rows.map((row) => row.id)));
        }
      }
      this.saveCheckpoint(checkpoint);
      if (job) {
        const written = jobOutputText(job, []);
        const recorded = this.db.prepare(RECORD_JOB_OUTPUT).run({ id: job.id, owner: job.owner, written });
        if (recorded.changes === 0) throw new JobOutputRefused(job.id);
      }
      this.db.prepare('DELETE FROM deferred_upkeep WHERE writer = ?').run(IMPORT_WRITER);
    });
  }

  async claimBrain(rows: { shape: TableShape; row: Row }[], checkpoint: ImportCheckpoint): Promise<boolean> {
    const claimed = await this.writes.runAlone(() => {
      for (const { shape, row } of rows) {
        const { statement, columns } = this.insertOf(shape);
        const inserted = statement.run(toSqlite(columns, row)).changes > 0;
        if (shape.table === 'brains' && !inserted) return false;
      }
      this.saveCheckpoint(checkpoint);
      return true;
    });
    return claimed;
  }

  private saveCheckpoint(checkpoint: ImportCheckpoint): void {
    this.db
      .prepare(
        `INSERT INTO import_runs (id, lines_done, finished, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET lines_done = excluded.lines_done, finished = excluded.finished,
           updated_at = excluded.updated_at`,
      )
      .run(checkpoint.id, checkpoint.linesDone, checkpoint.finished ? 1 : 0, new Date().toISOString());
  }

  async takenIds(shape: TableShape, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    // The table's name is a section's own constant, never input.
    return this.db
      .prepare<[string], { id: string }>(`SELECT id FROM ${shape.table} WHERE id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(ids))
      .map((row) => row.id);
  }

  async checkpoint(id: string): Promise<ImportCheckpoint | undefined> {
    const row = this.db
      .prepare<[string], { lines_done: number; finished: number }>(
        'SELECT lines_done, finished FROM import_runs WHERE id = ?',
      )
      .get(id);
    return row && { id, linesDone: row.lines_done, finished: row.finished === 1 };
  }
}
