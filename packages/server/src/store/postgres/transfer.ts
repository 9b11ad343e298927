import type pg from 'pg';
import { inTransaction } from './queries.js';
import { JobOutputRefused, jobOutputText, type JobWrite } from '../job-store.js';
import type { ImportCheckpoint, Row, TableShape, TransferReader, TransferStore } from '../transfer-store.js';
import { RECORD_JOB_OUTPUT } from './jobs-sql.js';

/** Rows fetched from the cursor at a time: memory stays flat whatever the brain's size. */
const FETCH_ROWS = 1000;
/** The longest one import batch may take before PostgreSQL cancels it. */
const BATCH_TIMEOUT = '5min';

/**
 * Export reads through one pooled connection in a REPEATABLE READ, read-only transaction: every
 * section of the file describes the same moment, and a cursor hands the rows over a batch at a
 * time. (json columns arrive parsed, timestamps as ISO text — the pool's type parsers —,
 * booleans as booleans.)
 */
class PostgresReader implements TransferReader {
  private cursors = 0;

  constructor(private readonly client: pg.PoolClient) {}

  /**
   * A declared cursor rather than a protocol-level portal (pg-cursor): PostgreSQL plans a
   * DECLARE for its first rows (cursor_tuple_fraction), so it walks the brain's index and the
   * first fetch answers at once, where a portal is planned for the whole result and sorts every
   * row of the brain before handing over one (a 10 s statement timeout at 300,000 edges).
   */
  async *rows(shape: TableShape, brainId: string): AsyncIterable<Row> {
    const columns = Object.keys(shape.columns).join(', ');
    const name = `export_rows_${++this.cursors}`;
    await this.client.query(
      `DECLARE ${name} NO SCROLL CURSOR FOR
       SELECT ${columns} FROM ${shape.table} WHERE ${shape.brainColumn} = $1 ORDER BY ${shape.orderBy.join(', ')}`,
      [brainId],
    );
    try {
      for (;;) {
        const { rows } = await this.client.query<Row>(`FETCH ${FETCH_ROWS} FROM ${name}`);
        if (rows.length === 0) return;
        yield* rows;
      }
    } finally {
      await this.client.query(`CLOSE ${name}`).catch(() => undefined);
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
      // One export may take minutes: neither the time between two fetches nor a fetch itself
      // (DATABASE_STATEMENT_TIMEOUT_MS is meant for requests) may cut it. It only reads.
      await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
      await client.query('SET LOCAL statement_timeout = 0');
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
  async writeRows(
    batches: { shape: TableShape; rows: Row[] }[],
    checkpoint: ImportCheckpoint,
    job?: JobWrite,
  ): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      // A batch of 5,000 rows on a busy server may take longer than a request is allowed.
      await client.query(`SET LOCAL statement_timeout = '${BATCH_TIMEOUT}'`);
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
      await saveCheckpoint(client, checkpoint);
      if (job) {
        const recorded = await client.query(RECORD_JOB_OUTPUT, [job.id, job.owner, jobOutputText(job, [])]);
        if ((recorded.rowCount ?? 0) === 0) throw new JobOutputRefused(job.id);
      }
    });
  }

  async claimBrain(rows: { shape: TableShape; row: Row }[], checkpoint: ImportCheckpoint): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      for (const { shape, row } of rows) {
        const columns = Object.keys(shape.columns).join(', ');
        // The brains table's primary key decides: of two claims at once, the second waits for
        // the first to commit and then inserts nothing.
        const inserted = await client.query(
          `INSERT INTO ${shape.table} (${columns})
           SELECT ${columns} FROM json_populate_record(NULL::${shape.table}, $1::json)
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(row)],
        );
        if (shape.table === 'brains' && (inserted.rowCount ?? 0) === 0) return false;
      }
      await saveCheckpoint(client, checkpoint);
      return true;
    });
  }

  async takenIds(shape: TableShape, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    // The table's name is a section's own constant, never input.
    const { rows } = await this.pool.query<{ id: string }>(`SELECT id FROM ${shape.table} WHERE id = ANY($1::text[])`, [
      ids,
    ]);
    return rows.map((row) => row.id);
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

async function saveCheckpoint(client: pg.PoolClient, checkpoint: ImportCheckpoint): Promise<void> {
  await client.query(
    `INSERT INTO import_runs (id, lines_done, finished, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (id) DO UPDATE SET lines_done = excluded.lines_done, finished = excluded.finished,
       updated_at = excluded.updated_at`,
    [checkpoint.id, checkpoint.linesDone, checkpoint.finished],
  );
}
