import type { Brain, SnapgraphClient } from '@snapgraph/client';

/**
 * The key's default brain, the one the explorer opens first. The API has no "who am I" call,
 * but every list without a brain_id reads the key's default brain, and its rows carry their
 * brain_id: one snapshot (or, in a brain of memories only, one memory) names it. A default
 * brain with neither is one of the account's empty brains; among several, the oldest (a key's
 * brain is made with the key, before any brain made through it).
 */
export async function defaultBrainId(client: SnapgraphClient, brains: readonly Brain[]): Promise<string | undefined> {
  const snapshots = await client.snapshots.list({ limit: 1 });
  if (snapshots.data[0]) return snapshots.data[0].brain_id;
  const memories = await client.memories.list({ limit: 1 }).catch(() => undefined);
  if (memories?.data[0]) return memories.data[0].brain_id;
  const empty = brains.filter((brain) => brain.snapshot_count === 0 && (brain.memory_count ?? 0) === 0);
  const oldest = [...empty].sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
  return oldest?.id;
}
