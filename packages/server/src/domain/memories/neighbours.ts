import type { Memory } from '../../model.js';
import type { MemoryStore } from '../../store/memory-store.js';

/**
 * Memories with a speaker written without a session this close together in time are turns of
 * one conversation for ranking: an agent that remembers a conversation turn by turn writes them
 * seconds or minutes apart, and a pause longer than this ends it.
 */
export const CONVERSATION_GAP_MS = 30 * 60 * 1000;

/** Earlier in a conversation's order: by occurred_at, then id (ids sort by creation time). */
export const isBefore = (a: Memory, b: Memory) =>
  a.occurred_at < b.occurred_at || (a.occurred_at === b.occurred_at && a.id < b.id);

/**
 * The turns around each anchor that memory ranking reads (up to `n` each side, oldest first): a
 * memory's session when it has one; without one, when it has a speaker (a turn, not a note), the
 * brain's memories just before and after it that have a speaker and no session either, each
 * within CONVERSATION_GAP_MS of the next, when some of them have another speaker than it
 * (docs/ranking.md, "Memory search"). A memory with neither
 * has no neighbours: notes written one after another need not be about the same thing. `context`
 * in search results stays the session's (design §12.3).
 */
export async function conversationNeighbours(
  store: MemoryStore,
  brainId: string,
  anchors: readonly Memory[],
  n: number,
): Promise<Map<string, Memory[]>> {
  const [bySession, byTime] = await Promise.all([
    store.sessionContext(brainId, anchors, n),
    store.nearestInTime(
      brainId,
      anchors.filter((a) => a.speaker !== null),
      n,
    ),
  ]);
  for (const [id, near] of byTime) {
    const anchor = anchors.find((a) => a.id === id) as Memory;
    bySession.set(id, sameConversation(anchor, near));
  }
  return bySession;
}

/**
 * The memories nearest the anchor in time (oldest first) that continue its conversation; none
 * when they and the anchor have one speaker only. A conversation has two sides: one person's
 * notes written minutes apart (all with speaker "me") answer nothing in each other.
 */
function sameConversation(anchor: Memory, near: readonly Memory[]): Memory[] {
  const before = near.filter((m) => isBefore(m, anchor)).reverse();
  const after = near.filter((m) => isBefore(anchor, m));
  const turns = [...continuing(anchor, before).reverse(), ...continuing(anchor, after)];
  return turns.some((m) => m.speaker !== anchor.speaker) ? turns : [];
}

/**
 * The run of `side` (nearest first) of the conversation's turns — memories with a speaker and no
 * session; a note (no speaker) or another session's memory between them is not one — without a
 * pause longer than the gap.
 */
function continuing(anchor: Memory, side: readonly Memory[]): Memory[] {
  const run: Memory[] = [];
  let last = anchor;
  for (const m of side) {
    if (m.speaker === null || m.session_id !== null) continue;
    if (Math.abs(Date.parse(m.occurred_at) - Date.parse(last.occurred_at)) > CONVERSATION_GAP_MS) break;
    run.push(m);
    last = m;
  }
  return run;
}
