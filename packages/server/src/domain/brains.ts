import { isoTime } from '../clock.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { BrainWithCounts, Page, PageOf, Principal } from '../model.js';
import type { Domain } from './context.js';
import { Problems } from './validate.js';

export const BRAIN_NAME_MAX = 200;

export interface BrainInput {
  name: string;
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
  const brain = { id: newId('brain', now), account_id: owner, name, created_at: at, updated_at: at };
  await domain.store.insertBrain(brain, newAccount);
  return { ...brain, snapshot_count: 0, edge_count: 0 };
}

export async function getBrain(domain: Domain, principal: Principal, brainId: string): Promise<BrainWithCounts> {
  const brain = await domain.store.getBrain(principal.accountId, brainId);
  if (!brain) throw notFound('brain');
  return brain;
}

export function listBrains(domain: Domain, principal: Principal, page: Page): Promise<PageOf<BrainWithCounts>> {
  return domain.store.listBrains(principal.accountId, page);
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
  if (!(await domain.store.hasBrain(principal.accountId, brainId))) throw notFound('brain');
  return brainId;
}
