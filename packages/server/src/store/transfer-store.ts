/**
 * Export and import (design §15) see every table through a small description of it, so that a
 * new kind of record (memories, knowledge) needs a description and no new store code.
 */

import type { JobWrite } from './job-store.js';

/** How a column is held: the stores translate these to and from their own types. */
export type ColumnKind = 'text' | 'number' | 'boolean' | 'json' | 'time';

export interface TableShape {
  table: string;
  /** Every column read and written, with its kind. */
  columns: Readonly<Record<string, ColumnKind>>;
  /** The column naming the brain a row belongs to. */
  brainColumn: string;
  /**
   * A unique key: rows are read in this order, so two exports of one brain are the same file.
   * Best an index's order after `brainColumn` (snapshots and edges: oldest first, read backwards
   * along their by-brain index), so rows stream from the first fetch, with no sort of the brain.
   */
  orderBy: readonly string[];
  /**
   * Imported snapshots come with their edges: the auto-link work that the insert triggers
   * queue for them is dropped in the same transaction (the embed work stays: vectors are not
   * exported, they are made again by the configured provider).
   */
  dropsAutoLinkWork?: boolean;
}

/** A row as plain values: text, numbers, booleans, parsed JSON, ISO 8601 times. */
export type Row = Record<string, unknown>;

/** A consistent view of the database, held open while an export streams. */
export interface TransferReader {
  /** The brain's rows of `shape`, in its order, fetched a batch at a time. */
  rows(shape: TableShape, brainId: string): AsyncIterable<Row>;
  close(): Promise<void>;
}

/** Where an import stands: lines of a file already written into a brain. */
export interface ImportCheckpoint {
  id: string;
  linesDone: number;
  finished: boolean;
}

export interface TransferStore {
  /** Opens a read-only view of one moment of the database (a read transaction). */
  openReader(): Promise<TransferReader>;
  /**
   * Writes batches of rows in one transaction, skipping rows whose key (or another unique
   * constraint) is already taken, and records the checkpoint in the same transaction: an
   * import killed at any moment resumes from the last batch that committed. With `job`, the
   * job's output is recorded in the same transaction too, as a knowledge write's (JobWrite).
   */
  writeRows(batches: { shape: TableShape; rows: Row[] }[], checkpoint: ImportCheckpoint, job?: JobWrite): Promise<void>;
  /**
   * Creates an imported file's brain — `rows`: its account (kept when there) and the brain row —
   * with the import's first checkpoint, in one transaction, only when no brain has that id: false
   * (and nothing written) when one has. Deciding which brain a file goes into and creating it is
   * one step, so two imports naming one free brain id never both take it (design §15.2).
   */
  claimBrain(rows: { shape: TableShape; row: Row }[], checkpoint: ImportCheckpoint): Promise<boolean>;
  checkpoint(id: string): Promise<ImportCheckpoint | undefined>;
  /** Of `ids`, those that a row of `shape`'s table (any account's) already has as its `id`. */
  takenIds(shape: TableShape, ids: string[]): Promise<string[]>;
}
