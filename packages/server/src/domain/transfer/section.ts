import type { Row, TableShape } from '../../store/transfer-store.js';

/** Where imported records go: a brain, its account, and how ids map into it. */
export interface ImportTarget {
  brainId: string;
  accountId: string;
  /** Whether the file's brain is created (ids kept) or the records join an existing brain. */
  keepIds: boolean;
  /** The file's brain is created under a new id (any of the file's ids was taken): design §15.3. */
  createsBrain?: boolean;
  /** The id a record's id becomes in the target (itself when ids are kept). */
  mapId(id: string): string;
}

/** What the validation pass has seen so far, for references between records. */
export interface SeenRecords {
  brainId: string;
  /** Whether an earlier record of the file has this id (ids carry their kind's prefix). */
  has(id: string): boolean;
  /** A memory of the file; `needsMemory`: this line names one, which may come later in the file. */
  addMemory(id: string): void;
  needsMemory(id: string): void;
}

/**
 * A field of a record that names another record (its id, a list of ids, or null): it must name a
 * record of an earlier line of the same file, of kind `kind` (design §15.2), so that it is renamed
 * with it and can never point into another brain or account.
 */
export interface Reference {
  field: string;
  kind: string;
}

/**
 * One kind of record in an export file: how it is read from the store, written to the file,
 * checked, and written back. The file holds the sections in the order of SECTIONS
 * (sections/index.ts); a new kind of record is one more module there.
 */
export interface Section {
  /** The record's `kind` in the file. */
  kind: string;
  /** The table the records are read from, and written to. */
  shape: TableShape;
  /** The fields naming other records of the file, checked alike for every kind (references.ts). */
  references?: readonly Reference[];
  /** The record as the file holds it, from a stored row. */
  toRecord(row: Row): Row;
  /** Problems with one record (its JSON already parsed), as reasons a person can act on. */
  check(record: unknown, seen: SeenRecords): string[];
  /** The rows to store for a valid record: none, one, or rows of other tables first. */
  toRows(record: Row, target: ImportTarget): { shape: TableShape; row: Row }[];
}
