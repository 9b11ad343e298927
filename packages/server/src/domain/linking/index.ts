import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Edge, EdgeType, Principal, Snapshot } from '../../model.js';
import type { Domain } from '../context.js';
import { CandidateSearch, sideOf } from './candidates.js';
import { judge, proposeLinks, type Proposal } from './proposals.js';
import { LINK_RULES } from './rules.js';

export { CandidateSearch, type Side } from './candidates.js';
export { LINK_RULES } from './rules.js';
export type { Proposal } from './proposals.js';
export { wordCosine, wordSet } from './resemblance.js';

/**
 * Automatic edges (DESIGN 4.2), the one entry point for everything that links: the background
 * worker for auto_link brains, crystallize, memory promotion and ingestion. Makes the
 * automatic edges of each snapshot: never a duplicate of an edge that exists (any origin or
 * direction), never one the user deleted. Idempotent: linking again makes nothing new.
 */
export async function linkSnapshots(domain: Domain, accountId: string, snapshots: Snapshot[]): Promise<Edge[]> {
  const made: Edge[] = [];
  for (const snapshot of snapshots) {
    const proposals = await proposeLinks(domain, snapshot, {
      minScore: LINK_RULES.autoMinScore,
      limit: LINK_RULES.autoMaxPerSnapshot,
      classify: true,
    });
    const now = domain.clock.now();
    const edges = proposals.map((p) => autoEdge(p, snapshot.brain_id, now));
    made.push(...(await domain.store.links.insertAutoEdges(accountId, edges)));
  }
  return made;
}

/**
 * The automatic edges of snapshots about to be written together (a crystallize run, an
 * ingestion, a promotion), to the brain's existing snapshots and among themselves: at most
 * LINK_RULES.autoMaxPerSnapshot per new snapshot, best first, each pair once. They are not
 * written here: the caller writes them with its snapshots in one transaction, where the store
 * leaves out any that an edge or a tombstone made since then forbids. `search`: the run's, when
 * its near-duplicate check has already searched the brain for these snapshots' words.
 */
export async function proposeEdgesForNew(
  domain: Domain,
  snapshots: Snapshot[],
  search = new CandidateSearch(domain, snapshots[0]?.brain_id ?? ''),
): Promise<Edge[]> {
  const options = { minScore: LINK_RULES.autoMinScore, limit: LINK_RULES.autoMaxPerSnapshot, stored: false, search };
  const sides = snapshots.map(sideOf);
  const proposals = await Promise.all(
    snapshots.map((snapshot, i) => proposeLinks(domain, snapshot, { ...options, side: sides[i] })),
  );
  for (const [i, j] of pairsSharingAWord(sides.map((side) => side.words))) {
    const proposal = judge(sides[i]!, sides[j]!, undefined);
    if (proposal.score < options.minScore) continue;
    proposals[i]?.push(proposal);
    proposals[j]?.push(proposal);
  }
  const now = domain.clock.now();
  const brainId = snapshots[0]?.brain_id ?? '';
  const pairs = new Set<string>();
  const edges: Edge[] = [];
  for (const own of proposals) {
    const best = own.sort((x, y) => y.score - x.score || x.target_id.localeCompare(y.target_id));
    for (const p of best.slice(0, options.limit)) {
      const pair = [p.source_id, p.target_id].sort().join(' ');
      if (pairs.has(pair)) continue;
      pairs.add(pair);
      edges.push(autoEdge(p, brainId, now));
    }
  }
  return edges;
}

/**
 * The pairs (i < j) whose word sets share a word. Any other pair scores at most the tag bonus
 * (rules.ts), below every threshold, and cannot name each other: judging only these saves most
 * of the n² comparisons of a long text's insights.
 */
function pairsSharingAWord(texts: ReadonlySet<string>[]): [number, number][] {
  const holders = new Map<string, number[]>();
  texts.forEach((words, i) => {
    for (const word of words) {
      const list = holders.get(word);
      if (list) list.push(i);
      else holders.set(word, [i]);
    }
  });
  const pairs = new Set<number>();
  for (const list of holders.values()) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) pairs.add((list[a] as number) * texts.length + (list[b] as number));
    }
  }
  return [...pairs].sort((x, y) => x - y).map((key) => [Math.floor(key / texts.length), key % texts.length]);
}

/** The background task of an auto_link brain: links one snapshot, if it still exists. */
export async function linkQueuedSnapshot(domain: Domain, brainId: string, snapshotId: string): Promise<Edge[]> {
  const brain = await domain.store.getBrainUnscoped(brainId);
  if (!brain) return [];
  const snapshot = await domain.store.getSnapshot(brain.account_id, snapshotId);
  if (!snapshot || snapshot.brain_id !== brainId) return [];
  return linkSnapshots(domain, brain.account_id, [snapshot]);
}

/** GET /v1/snapshots/:id/suggestions: what the service would link this snapshot to, best first. */
export async function suggestLinks(
  domain: Domain,
  principal: Principal,
  snapshotId: string,
  options: { limit: number; edge_type?: EdgeType | undefined },
): Promise<{ data: Proposal[]; count: number }> {
  const snapshot = await domain.store.getSnapshot(principal.accountId, snapshotId);
  if (!snapshot) throw notFound('snapshot');
  // Every suggestion is judged anyway (a few dozen candidates): `count` is all of them (DESIGN 1.3).
  const all = await proposeLinks(domain, snapshot, {
    minScore: LINK_RULES.suggestMinScore,
    limit: Number.POSITIVE_INFINITY,
    edgeType: options.edge_type,
    classify: true,
  });
  return { data: all.slice(0, options.limit), count: all.length };
}

function autoEdge(p: Proposal, brainId: string, now: number): Edge {
  const at = isoTime(now);
  return {
    id: newId('edge', now),
    brain_id: brainId,
    source_id: p.source_id,
    target_id: p.target_id,
    edge_type: p.edge_type,
    strength: p.strength,
    label: `auto: ${p.reason}`.slice(0, 500),
    origin: 'auto',
    created_at: at,
    updated_at: at,
  };
}
