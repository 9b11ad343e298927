import type { Snapshot } from '../../model.js';
import { SNAPSHOT_COLUMNS } from '../columns.js';

/** A snapshot's values in SNAPSHOT_COLUMNS order, JSON columns as text. */
export function snapshotValues(s: Snapshot): unknown[] {
  return SNAPSHOT_COLUMNS.map((column) => {
    if (column === 'emotion') return s.emotion === null ? null : JSON.stringify(s.emotion);
    if (column === 'tags') return JSON.stringify(s.tags);
    return s[column];
  });
}
