import { isoTime } from '../../clock.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ListPage, Memory, MemoryType, Principal } from '../../model.js';
import { resolveBrainId } from '../brains/index.js';
import type { Domain } from '../context.js';
import { pageQuery, pageResult, type PageRequest } from '../cursor.js';
import { checkIdOfMissing, checkReadOnly, nextUpdatedAt } from '../validate.js';
import { EDITABLE_FIELDS, MEMORY_READ_ONLY_FIELDS, normalizeMemoryFields, type MemoryFields } from './fields.js';
import { settleArrival } from './supersession/arrival.js';
import { asItStood, checkedReplacement, versionsOf } from './supersession/versions.js';
import { standingWindow } from './window.js';
import { forgetAllBrains, wroteTo } from './term-counts.js';
import { forgetAllLengths, lengthsWrittenTo } from './length-norm.js';

export { MEMORY_LIMITS, MEMORY_READ_ONLY_FIELDS } from './fields.js';
export { promoteMemory, type PromotionResult } from './promote.js';
export { settleArrivals } from './supersession/arrival.js';

export type MemoryCreateInput = Partial<MemoryFields> & { content: string; brain_id?: string | undefined };
export type MemoryPatch = Partial<MemoryFields> &
  Partial<Record<(typeof MEMORY_READ_ONLY_FIELDS)[number], unknown>> & { superseded_by?: string | null | undefined };

/** POST /v1/memories (and /remember): every field present in the answer, null when unset. */
export async function rememberMemory(domain: Domain, principal: Principal, input: MemoryCreateInput): Promise<Memory> {
  const fields = normalizeMemoryFields(input);
  const brainId = await resolveBrainId(domain, principal, input.brain_id);
  const now = domain.clock.now();
  const at = isoTime(now);
  const memory: Memory = {
    id: newId('mem', now),
    brain_id: brainId,
    content: fields.content as string,
    memory_type: fields.memory_type ?? 'fact',
    speaker: fields.speaker ?? null,
    tags: fields.tags ?? [],
    source_emotion: fields.source_emotion ?? null,
    emotional_valence: fields.emotional_valence ?? null,
    emotional_intensity: fields.emotional_intensity ?? null,
    occurred_at: fields.occurred_at ?? at,
    session_id: fields.session_id ?? null,
    promoted_to: null,
    superseded_by: null,
    superseded_at: null,
    created_at: at,
    updated_at: at,
  };
  await domain.store.memories.insert(principal.accountId, memory);
  wroteTo(domain.store.memories, brainId);
  lengthsWrittenTo(domain.store.memories, brainId);
  return settleArrival(domain, principal.accountId, memory);
}

export async function getMemory(domain: Domain, principal: Principal, id: string): Promise<Memory> {
  const memory = await domain.store.memories.get(principal.accountId, id);
  if (!memory) throw notFound('memory');
  return memory;
}

export interface MemoryListQuery extends PageRequest {
  brain_id?: string | undefined;
  memory_type?: MemoryType | undefined;
  speaker?: string | undefined;
  tag?: string | undefined;
  session_id?: string | undefined;
  /** On occurred_at, inclusive (ISO 8601 with Z or an offset). */
  since?: string | undefined;
  until?: string | undefined;
  /** Design §6.1: leave superseded memories out; the brain as it stood at as_of. */
  current_only?: boolean | undefined;
  as_of?: string | undefined;
}

/** GET /v1/memories: newest first, `count` of all matches (design §3.6). */
export async function listMemories(
  domain: Domain,
  principal: Principal,
  query: MemoryListQuery,
): Promise<ListPage<Memory>> {
  const page = pageQuery(query, 'mem');
  const { asOf, ...window } = standingWindow(query);
  const brainId = await resolveBrainId(domain, principal, query.brain_id);
  const found = await domain.store.memories.list({
    brainId,
    memoryType: query.memory_type,
    speaker: query.speaker,
    tag: query.tag?.trim(), // stored tags are trimmed
    sessionId: query.session_id,
    ...window,
    ...page,
  });
  const rows = found.rows.map((m) => asItStood(m, asOf));
  return { ...pageResult(rows, query.limit), total: found.total };
}

/** PUT /v1/memories/:id, with the rules of snapshot updates (design §3.5). */
export async function updateMemory(
  domain: Domain,
  principal: Principal,
  id: string,
  patch: MemoryPatch,
): Promise<Memory> {
  const editable = EDITABLE_FIELDS.some((field) => field in patch) || 'superseded_by' in patch;
  const fields = normalizeMemoryFields(patch);
  const now = domain.clock.now();
  const store = domain.store.memories;
  // A correction of what the rules decided (design §6.1), checked against the brain first.
  let replacement: Memory | null | undefined;
  if ('superseded_by' in patch) {
    const before = await store.get(principal.accountId, id);
    if (before) replacement = await checkedReplacement(domain, principal.accountId, before, patch.superseded_by);
  }
  const updated = await store.update(principal.accountId, id, (current) => {
    checkReadOnly(patch, current as unknown as Record<string, unknown>, MEMORY_READ_ONLY_FIELDS);
    if (!editable) throw new AppError('BAD_REQUEST', 'nothing to update: send at least one field to change');
    const chain =
      replacement === undefined
        ? {}
        : { superseded_by: replacement?.id ?? null, superseded_at: replacement?.occurred_at ?? null };
    return { ...current, ...fields, ...chain, updated_at: nextUpdatedAt(current.updated_at, now) };
  });
  if (!updated) {
    checkIdOfMissing(patch, id);
    throw notFound('memory');
  }
  wroteTo(store, updated.brain_id);
  lengthsWrittenTo(store, updated.brain_id);
  await restampReplaced(domain, principal.accountId, updated, now);
  return updated;
}

/** When a memory's occurred_at moves, those it replaced say so in their superseded_at. */
async function restampReplaced(domain: Domain, accountId: string, memory: Memory, now: number): Promise<void> {
  for (const older of await domain.store.memories.replaced(memory.brain_id, [memory.id])) {
    if (older.superseded_at === memory.occurred_at) continue;
    await domain.store.memories.update(accountId, older.id, (current) =>
      current.superseded_by === memory.id
        ? { ...current, superseded_at: memory.occurred_at, updated_at: nextUpdatedAt(current.updated_at, now) }
        : current,
    );
  }
}

/** GET /v1/memories/:id/history: the versions of its fact, oldest first (design §6.1). */
export async function memoryHistory(domain: Domain, principal: Principal, id: string): Promise<Memory[]> {
  return versionsOf(domain, principal.accountId, await getMemory(domain, principal, id));
}

/** Deletes the memory; snapshots promoted from it stay (they are the user's own now). */
export async function deleteMemory(domain: Domain, principal: Principal, id: string): Promise<void> {
  if (!(await domain.store.memories.delete(principal.accountId, id))) throw notFound('memory');
  forgetAllBrains(domain.store.memories); // the memory's brain is not read back; deletes are rare
  forgetAllLengths(domain.store.memories);
}

export { searchMemories, type MemorySearchInput } from './search.js';
