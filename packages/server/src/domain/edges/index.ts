import { isoTime } from '../../clock.js';
import { AppError, notFound, unprocessable } from '../../errors.js';
import { newId } from '../../ids.js';
import { EDGE_READ_ONLY_FIELDS } from '../../fields/edge.js';
import type { Edge, EdgeType, JsonRow, ListPage, PageOf, Principal } from '../../model.js';
import type { EdgeScope } from '../../store/store.js';
import type { Domain } from '../context.js';
import { pageQuery, pageResult, type PageRequest } from '../cursor.js';
import { checkIdOfMissing, checkReadOnly, nextUpdatedAt } from '../validate.js';

// Design §3.4: every text field beyond those it names may hold up to 20,000 characters.
export const EDGE_LABEL_MAX = 20_000;
export const DEFAULT_EDGE_STRENGTH = 0.5;

export { EDGE_READ_ONLY_FIELDS };

export interface EdgeCreateInput {
  source_id: string;
  target_id: string;
  edge_type: EdgeType;
  strength?: number;
  label?: string | null;
}

export type EdgePatch = {
  edge_type?: EdgeType;
  strength?: number;
  label?: string | null;
} & Partial<Record<(typeof EDGE_READ_ONLY_FIELDS)[number], unknown>>;

export async function createEdge(domain: Domain, principal: Principal, input: EdgeCreateInput): Promise<Edge> {
  const [source, target] = await Promise.all([
    domain.store.snapshots.get(principal.accountId, input.source_id),
    domain.store.snapshots.get(principal.accountId, input.target_id),
  ]);
  if (!source) throw notFound('source snapshot');
  if (!target) throw notFound('target snapshot');
  if (source.id === target.id) throw unprocessable('an edge cannot connect a snapshot to itself');
  if (source.brain_id !== target.brain_id) {
    throw unprocessable('the two snapshots do not belong to the same brain');
  }
  const now = domain.clock.now();
  const at = isoTime(now);
  const edge: Edge = {
    id: newId('edge', now),
    brain_id: source.brain_id,
    source_id: source.id,
    target_id: target.id,
    edge_type: input.edge_type,
    strength: input.strength ?? DEFAULT_EDGE_STRENGTH,
    label: input.label ?? null,
    origin: 'manual',
    created_at: at,
    updated_at: at,
  };
  // Uniqueness (including the reverse of a related_to edge) is the database's call, so two
  // racing creates give exactly one edge and one CONFLICT.
  await domain.store.edges.insert(principal.accountId, edge);
  return edge;
}

export async function getEdge(domain: Domain, principal: Principal, id: string): Promise<Edge> {
  const edge = await domain.store.edges.get(principal.accountId, id);
  if (!edge) throw notFound('edge');
  return edge;
}

export interface EdgeListQuery extends PageRequest {
  snapshot_id?: string | undefined;
  brain_id?: string | undefined;
  edge_type?: EdgeType | undefined;
  min_strength: number;
}

/** The edges asked for: of a snapshot, which takes precedence when both are given, or of a brain. */
function edgeScope(query: EdgeListQuery): EdgeScope {
  if (query.snapshot_id !== undefined) return { snapshotId: query.snapshot_id };
  if (query.brain_id !== undefined) return { brainId: query.brain_id };
  throw new AppError('BAD_REQUEST', 'snapshot_id or brain_id is required', {
    field: 'snapshot_id',
    reason: 'snapshot_id or brain_id is required',
    errors: [{ field: 'snapshot_id', reason: 'snapshot_id or brain_id is required' }],
  });
}

export async function listEdges(
  domain: Domain,
  principal: Principal,
  query: EdgeListQuery,
): Promise<ListPage<JsonRow>> {
  const page = pageQuery(query, 'edge');
  const scope = edgeScope(query);
  // The store checks the scope with the page (and keeps both, on SQLite, until the next write).
  const found = await domain.store.edges.list({
    accountId: principal.accountId,
    scope,
    edgeType: query.edge_type,
    minStrength: query.min_strength,
    ...page,
  });
  if (found === undefined) throw notFound('snapshotId' in scope ? 'snapshot' : 'brain');
  let listed = listedPages.get(found);
  if (listed === undefined) {
    listed = { ...pageResult(found.rows, query.limit), total: found.total };
    listedPages.set(found, listed);
  }
  return listed;
}

/**
 * The page as listed, for each page the store returns. A store that caches pages (SQLite's
 * edge-page cache) returns the same object for the same query until the next write, so it gets
 * the same listed page back, and what the HTTP layer builds from it (the body) is kept with it.
 */
const listedPages = new WeakMap<PageOf<JsonRow>, ListPage<JsonRow>>();

export async function updateEdge(domain: Domain, principal: Principal, id: string, patch: EdgePatch): Promise<Edge> {
  const editable = patch.edge_type !== undefined || patch.strength !== undefined || 'label' in patch;
  const now = domain.clock.now();
  const updated = await domain.store.edges.update(principal.accountId, id, (current) => {
    checkReadOnly(patch, current as unknown as Record<string, unknown>, EDGE_READ_ONLY_FIELDS);
    // Checked against the stored edge, so that a read-only field sent alone with a different
    // value is named above; equal ones alone change nothing.
    if (!editable) throw new AppError('BAD_REQUEST', 'nothing to update: send edge_type, strength or label');
    return {
      ...current,
      edge_type: patch.edge_type ?? current.edge_type,
      strength: patch.strength ?? current.strength,
      label: 'label' in patch ? (patch.label ?? null) : current.label,
      // Design §9.1: the user owns an automatic edge from the moment they edit it.
      origin: 'manual',
      updated_at: nextUpdatedAt(current.updated_at, now),
    };
  });
  if (!updated) {
    checkIdOfMissing(patch, id);
    throw notFound('edge');
  }
  return updated;
}

export async function deleteEdge(domain: Domain, principal: Principal, id: string): Promise<void> {
  // The tombstone keeps the service from making this edge again (design §9.4).
  const at = isoTime(domain.clock.now());
  if (!(await domain.store.edges.delete(principal.accountId, id, at))) throw notFound('edge');
}
