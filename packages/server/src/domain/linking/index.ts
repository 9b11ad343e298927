import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Edge, EdgeType, Principal, Snapshot } from '../../model.js';
import type { Domain } from '../context.js';
import { setImmediate } from 'node:timers/promises';
import { compute } from '../compute/index.js';
import { CandidateSearch } from './candidates.js';
import { proposeLinks, type Proposal } from './proposals.js';
import { LINK_RULES } from './rules.js';
import { mapInTurns, turnAfterRows } from '../turns.js';

export { CandidateSearch, type Side } from './candidates.js';
export { LINK_RULES } from './rules.js';
export type { Proposal } from './proposals.js';
export { wordCosine, wordSet } from './resemblance.js';

/**
 * Automatic edges (design §9), the one entry point for everything that links: the background
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
 *
 * Bounded on any input: the links among the new snapshots are found on the compute pool through
 * an inverted index of their words (among-new.ts); only the first LINK_RULES.runMaxLinked are
 * matched against the brain here, a few at a time with the event loop free in between, and the
 * rest are queued for the background linker (LINK_RULES.laterLinkDelayMs later, once written).
 */
export async function proposeEdgesForNew(
  domain: Domain,
  snapshots: Snapshot[],
  search = new CandidateSearch(domain, snapshots[0]?.brain_id ?? ''),
): Promise<Edge[]> {
  const options = { minScore: LINK_RULES.autoMinScore, limit: LINK_RULES.autoMaxPerSnapshot, stored: false, search };
  const brainId = snapshots[0]?.brain_id ?? '';
  const linkedNow = snapshots.slice(0, LINK_RULES.runMaxLinked);
  const proposals: Proposal[][] = [];
  for (let at = 0; at < linkedNow.length; at += BRAIN_LINKS_AT_ONCE) {
    const batch = linkedNow.slice(at, at + BRAIN_LINKS_AT_ONCE);
    proposals.push(...(await Promise.all(batch.map((snapshot) => proposeLinks(domain, snapshot, options)))));
    // SQLite answers synchronously: without a turn of the loop, a long run would hold it.
    await setImmediate();
  }
  const texts = await mapInTurns(snapshots, ({ id, name, core, one_liner, tags }) => ({
    id,
    name,
    core,
    one_liner,
    tags,
  }));
  const among = await compute(domain, 'linkAmongNew', [texts, options.minScore]);
  among.forEach((own, i) => (proposals[i] ??= []).push(...own));
  const later = snapshots.slice(LINK_RULES.runMaxLinked).map((s) => s.id);
  if (later.length > 0) await domain.store.links.queueLinking(brainId, later, LINK_RULES.laterLinkDelayMs);

  const now = domain.clock.now();
  const pairs = new Set<string>();
  const edges: Edge[] = [];
  for (const [i, own] of proposals.entries()) {
    await turnAfterRows(i);
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

/** New snapshots matched against the brain at once (PostgreSQL answers them in parallel). */
const BRAIN_LINKS_AT_ONCE = 4;

/** The background task of an auto_link brain: links one snapshot, if it still exists. */
export async function linkQueuedSnapshot(domain: Domain, brainId: string, snapshotId: string): Promise<Edge[]> {
  const brain = await domain.store.brains.getUnscoped(brainId);
  if (!brain) return [];
  const snapshot = await domain.store.snapshots.get(brain.account_id, snapshotId);
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
  const snapshot = await domain.store.snapshots.get(principal.accountId, snapshotId);
  if (!snapshot) throw notFound('snapshot');
  // Every suggestion is judged anyway (a few dozen candidates): `count` is all of them (design §3.6).
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
