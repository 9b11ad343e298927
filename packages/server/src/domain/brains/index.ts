import { isoTime } from '../../clock.js';
import { notFound, validationError } from '../../errors.js';
import { BRAIN_READ_ONLY_FIELDS } from '../../fields/brain.js';
import { newId } from '../../ids.js';
import type { BrainWithCounts, Page, PageOf, Principal } from '../../model.js';
import type { Domain } from '../context.js';
import { checkIdOfMissing, checkReadOnly, nextUpdatedAt, Problems } from '../validate.js';

export const BRAIN_NAME_MAX = 200;

export interface BrainInput {
  name: string;
  auto_link?: boolean;
}

export interface BrainPatch {
  name?: string;
  auto_link?: boolean;
}

/**
 * A brain in the given account, or — with no account (`undefined`) — in a new account of its
 * own, which a key can then be issued for (`keys create --brain`).
 */
export async function createBrain(
  domain: Domain,
  accountId: string | undefined,
  input: BrainInput,
): Promise<BrainWithCounts> {
  const problems = new Problems();
  const name = problems.trimmed('name', input.name, 1, BRAIN_NAME_MAX);
  problems.throwIfAny();
  const now = domain.clock.now();
  const at = isoTime(now);
  const owner = accountId ?? newId('acct', now);
  const newAccount = accountId === undefined ? { id: owner, created_at: at } : undefined;
  const brain = {
    id: newId('brain', now),
    account_id: owner,
    name,
    auto_link: input.auto_link ?? false,
    created_at: at,
    updated_at: at,
  };
  await domain.store.brains.insert(brain, newAccount);
  return { ...brain, snapshot_count: 0, edge_count: 0, memory_count: 0, pending_work: { auto_link: 0, embeddings: 0 } };
}

/** Fields the service sets (declared in fields/brain.ts); a client may send them back on update, unchanged. */
export { BRAIN_READ_ONLY_FIELDS };

/**
 * Renames a brain or turns automatic linking on or off. Turning it on queues the brain's
 * existing snapshots for linking too (a trigger does it in the same transaction). The counts
 * (`snapshot_count`, `edge_count`, `memory_count`, `pending_work`) are derived, not stored: sent back, they are
 * ignored, since they may have moved since the client read them.
 */
export async function updateBrain(
  domain: Domain,
  principal: Principal,
  id: string,
  patch: BrainPatch & Record<string, unknown>,
): Promise<BrainWithCounts> {
  const problems = new Problems();
  const name = patch.name === undefined ? undefined : problems.trimmed('name', patch.name, 1, BRAIN_NAME_MAX);
  problems.throwIfAny();
  const now = domain.clock.now();
  const updated = await domain.store.brains.update(principal.accountId, id, (current) => {
    checkReadOnly(patch, current as unknown as Record<string, unknown>, BRAIN_READ_ONLY_FIELDS);
    if (name === undefined && patch.auto_link === undefined) {
      // Only fields the service sets (the counts are ignored, as they move): name the first.
      const field = Object.keys(patch)[0] ?? 'body';
      throw validationError([{ field, reason: 'is set by the service: nothing to update (send name or auto_link)' }]);
    }
    return {
      ...current,
      name: name ?? current.name,
      auto_link: patch.auto_link ?? current.auto_link,
      updated_at: nextUpdatedAt(current.updated_at, now),
    };
  });
  if (!updated) {
    checkIdOfMissing(patch, id);
    throw notFound('brain');
  }
  domain.background?.nudge();
  return updated;
}

export async function getBrain(domain: Domain, principal: Principal, brainId: string): Promise<BrainWithCounts> {
  const brain = await domain.store.brains.get(principal.accountId, brainId);
  if (!brain) throw notFound('brain');
  return brain;
}

export function listBrains(domain: Domain, principal: Principal, page: Page): Promise<PageOf<BrainWithCounts>> {
  return domain.store.brains.list(principal.accountId, page);
}

/**
 * The brain a request works in: the one it names, if the caller's account owns it, or the
 * key's default brain. Another account's brain is "not found", never "forbidden".
 */
export async function resolveBrainId(
  domain: Domain,
  principal: Principal,
  brainId: string | undefined,
): Promise<string> {
  if (brainId === undefined || brainId === principal.defaultBrainId) return principal.defaultBrainId;
  if (!(await domain.store.brains.has(principal.accountId, brainId))) throw notFound('brain');
  return brainId;
}
