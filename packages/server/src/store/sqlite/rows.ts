import type { Snapshot } from '../../model.js';

/** Snapshot columns in the order the API returns them; account_id stays inside the store. */
export const SNAPSHOT_COLUMNS = [
  'id',
  'brain_id',
  'name',
  'core',
  'type',
  'one_liner',
  'story',
  'moment',
  'emotion',
  'source',
  'trigger_pattern',
  'method',
  'steps',
  'filter',
  'challenge',
  'break_test',
  'risks',
  'proof',
  'confidence',
  'significance_score',
  'tags',
  'source_type',
  'source_id',
  'created_at',
  'updated_at',
] as const;

export const EDGE_COLUMNS = [
  'id',
  'brain_id',
  'source_id',
  'target_id',
  'edge_type',
  'strength',
  'label',
  'created_at',
  'updated_at',
] as const;

/** A snapshot row as SQLite holds it: emotion and tags are JSON text. */
export type SnapshotRow = Omit<Snapshot, 'emotion' | 'tags'> & { emotion: string | null; tags: string };

export function snapshotFromRow(row: SnapshotRow): Snapshot {
  const snapshot = row as unknown as Snapshot;
  snapshot.emotion = row.emotion === null ? null : (JSON.parse(row.emotion) as Snapshot['emotion']);
  snapshot.tags = JSON.parse(row.tags) as string[];
  return snapshot;
}

export function snapshotToRow(accountId: string, s: Snapshot): Record<string, unknown> {
  return {
    ...s,
    account_id: accountId,
    emotion: s.emotion === null ? null : JSON.stringify(s.emotion),
    tags: JSON.stringify(s.tags),
  };
}
