import { isoTime } from '../../clock.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Edge, EdgeType, Principal, Snapshot } from '../../model.js';
import type { Domain } from '../context.js';
import { proposeLinks, type Proposal } from './proposals.js';
import { LINK_RULES } from './rules.js';

export { LINK_RULES } from './rules.js';
export type { Proposal } from './proposals.js';

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
    });
    const now = domain.clock.now();
    const edges = proposals.map((p) => autoEdge(p, snapshot.brain_id, now));
    made.push(...(await domain.store.links.insertAutoEdges(accountId, edges)));
  }
  return made;
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
): Promise<Proposal[]> {
  const snapshot = await domain.store.getSnapshot(principal.accountId, snapshotId);
  if (!snapshot) throw notFound('snapshot');
  return proposeLinks(domain, snapshot, {
    minScore: LINK_RULES.suggestMinScore,
    limit: options.limit,
    edgeType: options.edge_type,
  });
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
