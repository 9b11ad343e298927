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
export function oneLiner(snapshot: Pick<Snapshot, 'one_liner' | 'core'>): string {
  const text = (snapshot.one_liner ?? snapshot.core).replace(/\s+/g, ' ').trim();
  return text.length > ONE_LINER_MAX ? `${text.slice(0, ONE_LINER_MAX - 1)}…` : text;
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
