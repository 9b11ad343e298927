import type { Snapshot } from '../../model.js';

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
