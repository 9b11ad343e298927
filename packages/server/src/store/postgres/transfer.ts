import type pg from 'pg';
import Cursor from 'pg-cursor';
import type { ImportCheckpoint, Row, TableShape, TransferReader, TransferStore } from '../transfer-store.js';
import { snapgraphTypes } from './pg-types.js';

/** Rows fetched from the cursor at a time: memory stays flat whatever the brain's size. */
const FETCH_ROWS = 1000;

/**
 * Export reads through one pooled connection in a REPEATABLE READ, read-only transaction: every
 * section of the file describes the same moment, and a cursor hands the rows over a batch at a
 * time. (json columns arrive parsed, timestamps as ISO text, booleans as booleans.)
 */
class PostgresReader implements TransferReader {
  constructor(private readonly client: pg.PoolClient) {}

  async *rows(shape: TableShape, brainId: string): AsyncIterable<Row> {
    const columns = Object.keys(shape.columns).join(', ');
    const cursor = this.client.query(
      new Cursor<Row>(
        `SELECT ${columns} FROM ${shape.table} WHERE ${shape.brainColumn} = $1 ORDER BY ${shape.orderBy.join(', ')}`,
        [brainId],
        { types: snapgraphTypes },
      ),
    );
    try {
      for (;;) {
        const rows = await cursor.read(FETCH_ROWS);
        if (rows.length === 0) return;
        yield* rows;
      }
    } finally {
      await cursor.close();
    }
  }

  async close(): Promise<void> {
    try {
      await this.client.query('COMMIT');
    } finally {
      this.client.release();
    }
  }
}

export class PostgresTransferStore implements TransferStore {
  constructor(private readonly pool: pg.Pool) {}

  async openReader(): Promise<TransferReader> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      // One export may take minutes; each fetch is its own short statement, but the transaction
      // itself must not be cut by an idle-in-transaction limit between two fetches.
      await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    } catch (err) {
      client.release();
      throw err;
    }
    return new PostgresReader(client);
  }

  /**
   * Each batch is one statement: the rows travel as one JSON array that PostgreSQL turns into
   * records of the table's own type (json_populate_recordset), which converts every column.
   */
  async writeRows(batches: { shape: TableShape; rows: Row[] }[], checkpoint: ImportCheckpoint): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const { shape, rows } of batches) {
        if (rows.length === 0) continue;
        const columns = Object.keys(shape.columns).join(', ');
        await client.query(
          `INSERT INTO ${shape.table} (${columns})
           SELECT ${columns} FROM json_populate_recordset(NULL::${shape.table}, $1::json)
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(rows)],
        );
        if (shape.dropsAutoLinkWork) {
          await client.query(`DELETE FROM background_work WHERE kind = 'auto_link' AND subject_id = ANY($1::text[])`, [
            rows.map((row) => row.id),
          ]);
        }
      }
      await client.query(
        `INSERT INTO import_runs (id, lines_done, finished, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (id) DO UPDATE SET lines_done = excluded.lines_done, finished = excluded.finished,
           updated_at = excluded.updated_at`,
        [checkpoint.id, checkpoint.linesDone, checkpoint.finished],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async checkpoint(id: string): Promise<ImportCheckpoint | undefined> {
    const { rows } = await this.pool.query<{ lines_done: number; finished: boolean }>(
      'SELECT lines_done, finished FROM import_runs WHERE id = $1',
      [id],
    );
    const row = rows[0];
    return row && { id, linesDone: Number(row.lines_done), finished: row.finished };
  }
}
