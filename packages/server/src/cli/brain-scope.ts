import type { Domain } from '../domain/context.js';
import { notFound } from '../errors.js';
import type { BrainWithCounts, Principal } from '../model.js';
import { UsageError } from './io.js';

/**
 * The brain a command works in: the one named, or on an install with a single brain, that one.
 * `usage` is shown when the brain must be named.
 */
export async function resolveCliBrain(
  domain: Domain,
  brainId: string | undefined,
  usage: string,
): Promise<BrainWithCounts> {
  if (brainId !== undefined) {
    const brain = await domain.store.getBrainUnscoped(brainId);
    if (!brain) throw notFound('brain');
    return brain;
  }
  const brains = await domain.store.listBrains(undefined, { limit: 2, offset: 0 });
  if (brains.total === 1) return brains.rows[0] as BrainWithCounts;
  throw new UsageError(
    brains.total === 0 ? 'there is no brain yet' : `several brains exist: name one with --brain\n${usage}`,
  );
}

/** The operator acts as the brain's account, with no limits: the CLI runs on the database itself. */
export function operatorOf(brain: BrainWithCounts): Principal {
  return {
    keyId: 'cli',
    accountId: brain.account_id,
    defaultBrainId: brain.id,
    plan: 'enterprise',
    rpm: null,
    burst: null,
  };
}
