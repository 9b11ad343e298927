import type { Row } from '../../store/transfer-store.js';

/**
 * The export file (NDJSON): a header line naming the format and its version, one line per
 * record (`{"kind": "snapshot", "data": {...}}`) section by section, and an end line with the
 * count of each kind, by which a reader tells a whole file from a cut one.
 */
export const FORMAT_NAME = 'snapgraph-export';
/** Bumped when a reader of the previous version could misread a file; readers refuse newer ones. */
export const FORMAT_VERSION = 1;
export const END_KIND = 'end';

export interface ExportHeader {
  format: typeof FORMAT_NAME;
  version: number;
  exported_at: string;
  brain_id: string;
  /** The kinds of record this file may hold, in order. */
  sections: string[];
}

export interface ExportEnd {
  kind: typeof END_KIND;
  counts: Record<string, number>;
}

/** A record as export reads it: its kind and its row, as the file holds it. */
export interface ExportRecord {
  kind: string;
  data: Row;
}

export interface RecordLine {
  kind: string;
  data: unknown;
}

export const headerLine = (header: ExportHeader): string => `${JSON.stringify(header)}\n`;
export const recordLine = (kind: string, data: unknown): string =>
  `{"kind":${JSON.stringify(kind)},"data":${JSON.stringify(data)}}\n`;
export const endLine = (counts: Record<string, number>): string => `${JSON.stringify({ kind: END_KIND, counts })}\n`;
