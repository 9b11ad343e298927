import { AppError } from '../../../errors.js';
import type { Memory } from '../../../model.js';
import type { Domain } from '../../context.js';
import { Problems } from '../../validate.js';

/** A chain longer than this is read no further (a brain's versions of one fact are few). */
const MAX_VERSIONS = 1_000;

/** Oldest first by occurred_at, then arrival. */
export const byOccurrence = (a: Memory, b: Memory) =>
  a.occurred_at.localeCompare(b.occurred_at) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);

/**
 * GET /v1/memories/:id/history (design §6.1): every version of the fact `memory` belongs to —
 * what it replaced, what replaced it, and so on both ways — oldest first.
 */
export async function versionsOf(domain: Domain, accountId: string, memory: Memory): Promise<Memory[]> {
  const store = domain.store.memories;
  const found = new Map<string, Memory>([[memory.id, memory]]);
  let frontier = [memory];
  while (frontier.length > 0 && found.size < MAX_VERSIONS) {
    const next: Memory[] = [];
    for (const m of frontier) {
      if (m.superseded_by === null || found.has(m.superseded_by)) continue;
      const later = await store.get(accountId, m.superseded_by);
      if (later && later.brain_id === memory.brain_id) {
        found.set(later.id, later);
        next.push(later);
      }
    }
    for (const earlier of await store.replaced(
      memory.brain_id,
      frontier.map((m) => m.id),
    )) {
      if (found.has(earlier.id)) continue;
      found.set(earlier.id, earlier);
      next.push(earlier);
    }
    frontier = next;
  }
  return [...found.values()].sort(byOccurrence);
}

/**
 * A `superseded_by` sent on PUT: null clears it; an id must name another memory of the same
 * brain (else 404) whose own chain does not lead back to this one (else 400). Returns the
 * memory named, or null.
 */
export async function checkedReplacement(
  domain: Domain,
  accountId: string,
  memory: Memory,
  value: unknown,
): Promise<Memory | null> {
  if (value === null) return null;
  const problems = new Problems();
  if (typeof value !== 'string') problems.add('superseded_by', 'must be a memory id or null');
  else if (value === memory.id) problems.add('superseded_by', 'a memory cannot supersede itself');
  problems.throwIfAny();
  const store = domain.store.memories;
  const replacement = await store.get(accountId, value as string);
  if (!replacement || replacement.brain_id !== memory.brain_id) {
    throw new AppError('NOT_FOUND', 'superseded_by: no memory with that id in this brain');
  }
  const seen = new Set<string>([replacement.id]);
  for (let next = replacement.superseded_by; next !== null;) {
    if (next === memory.id) {
      problems.add('superseded_by', `${replacement.id} is already a later version of this memory: that would loop`);
      problems.throwIfAny();
    }
    if (seen.has(next) || seen.size > MAX_VERSIONS) break;
    seen.add(next);
    next = (await store.get(accountId, next))?.superseded_by ?? null;
  }
  return replacement;
}

/**
 * The memory as the brain stood at `asOf` (design §6.1): a replacement that occurred later had
 * not happened yet, so the memory was current then.
 */
export function asItStood<T extends Memory>(memory: T, asOf: string | undefined): T {
  if (asOf === undefined || memory.superseded_at === null || memory.superseded_at <= asOf) return memory;
  return { ...memory, superseded_by: null, superseded_at: null };
}
