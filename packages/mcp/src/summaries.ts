import type { Snapshot, SnapgraphClient } from '@snapgraph/client';

/** What a list shows of a snapshot: enough to choose one, then `open_snapshot` reads it all. */
export interface SnapshotSummary {
  id: string;
  name: string;
  type: string;
  one_liner: string;
}

const ONE_LINER_MAX = 200;

/** The snapshot's one-liner, or the start of its core when it has none. */
export function oneLiner(snapshot: { one_liner?: string | null | undefined; core: string }): string {
  return firstLine(snapshot.one_liner ?? snapshot.core);
}

export function summarize(snapshot: Snapshot): SnapshotSummary {
  return { id: snapshot.id, name: snapshot.name, type: snapshot.type, one_liner: oneLiner(snapshot) };
}

/**
 * Summaries of the snapshots named by id (the other ends of edges, suggestions), a few requests
 * at a time; an id that no longer exists (deleted meanwhile) is left out.
 */
export async function summariesById(
  client: SnapgraphClient,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, SnapshotSummary>> {
  const unique = [...new Set(ids)];
  const found = new Map<string, SnapshotSummary>();
  const CONCURRENCY = 4;
  for (let i = 0; i < unique.length; i += CONCURRENCY) {
    const batch = unique.slice(i, i + CONCURRENCY);
    const settled = await Promise.allSettled(batch.map((id) => client.snapshots.get(id, signal ? { signal } : {})));
    settled.forEach((result, j) => {
      if (result.status === 'fulfilled') found.set(batch[j] as string, summarize(result.value));
      else if ((result.reason as { status?: number }).status !== 404) throw result.reason;
    });
  }
  return found;
}

/** At most this many summaries in one answer; the rest are given as ids only. */
export const SUMMARY_LIMIT = 50;

/** Summaries of the first SUMMARY_LIMIT snapshots and the ids of any beyond them. */
export function boundedSummaries(snapshots: readonly Snapshot[]): {
  snapshots: SnapshotSummary[];
  more_snapshot_ids?: string[];
} {
  const shown = snapshots.slice(0, SUMMARY_LIMIT).map(summarize);
  const rest = snapshots.slice(SUMMARY_LIMIT).map((s) => s.id);
  return rest.length > 0 ? { snapshots: shown, more_snapshot_ids: rest } : { snapshots: shown };
}

/** The start of a long text, on one line, for a list. */
export function firstLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ONE_LINER_MAX ? `${flat.slice(0, ONE_LINER_MAX - 1)}…` : flat;
}
