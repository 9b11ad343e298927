import type { Domain } from '../domain/context.js';
import { notFound } from '../errors.js';
import type { BrainWithCounts, Principal } from '../model.js';
import { UsageError } from './io.js';

/** Brains read per page while looking one up by name (the CLI sees every account's). */
const PAGE = 1000;

/** Every brain of the database, a page at a time. */
export async function* allBrains(domain: Domain): AsyncIterable<BrainWithCounts> {
  for (let offset = 0; ; offset += PAGE) {
    const page = await domain.store.brains.list(undefined, { limit: PAGE, offset });
    yield* page.rows;
    if (page.rows.length < PAGE) return;
  }
}

/**
 * The brain `--brain` names (design §16.3): by its id, or by its name when one brain has that
 * name; two or more with the name are an error listing their ids.
 */
export async function findCliBrain(domain: Domain, idOrName: string): Promise<BrainWithCounts> {
  const byId = await domain.store.brains.getUnscoped(idOrName);
  if (byId) return byId;
  const named: BrainWithCounts[] = [];
  for await (const brain of allBrains(domain)) if (brain.name === idOrName) named.push(brain);
  if (named.length === 1) return named[0] as BrainWithCounts;
  if (named.length === 0) throw notFound(`brain "${idOrName}"`);
  const ids = named.map((brain) => `${brain.id} (account ${brain.account_id})`).join(', ');
  throw new UsageError(`${named.length} brains are named "${idOrName}": ${ids}; name one by its id with --brain`);
}

/**
 * The brain a command works in: the one named (id or name), or on an install with a single
 * brain, that one. `usage` is shown when the brain must be named.
 */
export async function resolveCliBrain(
  domain: Domain,
  brain: string | undefined,
  usage: string,
): Promise<BrainWithCounts> {
  if (brain !== undefined) return findCliBrain(domain, brain);
  const brains = await domain.store.brains.list(undefined, { limit: 10, offset: 0 });
  if (brains.total === 1) return brains.rows[0] as BrainWithCounts;
  if (brains.total === 0) throw new UsageError('there is no brain yet');
  const listed = brains.rows.map((b) => `  ${b.id}  ${b.name}`).join('\n');
  const more =
    brains.total > brains.rows.length
      ? `\n  … and ${brains.total - brains.rows.length} more (snapgraph brains list)`
      : '';
  throw new UsageError(
    `several brains exist (${brains.total}): name one with --brain <id or name>\n${listed}${more}\n${usage}`,
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
