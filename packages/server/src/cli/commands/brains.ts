import { parseArgs } from 'node:util';
import { createBrain } from '../../domain/brains/index.js';
import type { Domain } from '../../domain/context.js';
import { notFound } from '../../errors.js';
import { table, UsageError, type CliIo } from '../io.js';
import { withDomain } from '../with-domain.js';

const CREATE_USAGE = 'usage: snapgraph brains create --name <name> [--account <account_id> | --key <key_id>] [--json]';

/**
 * The account a new brain goes to: the one named, the one of the key named, on an install with
 * a single account that one, and on an install with none a new one (undefined).
 */
async function resolveAccount(domain: Domain, values: { account?: string; key?: string }): Promise<string | undefined> {
  if (values.account) {
    if (!(await domain.store.keys.getAccount(values.account))) throw notFound('account');
    return values.account;
  }
  if (values.key) {
    const key = await domain.store.keys.get(values.key);
    if (!key) throw notFound('key');
    return key.account_id;
  }
  // Every account has a brain, but one made by `brains create` may have no key yet.
  const keys = await domain.store.keys.list();
  const brains = await domain.store.brains.list(undefined, { limit: 1000, offset: 0 });
  const accounts = new Set([...keys, ...brains.rows].map((owned) => owned.account_id));
  if (accounts.size === 0) return undefined;
  if (accounts.size === 1) return [...accounts][0] as string;
  throw new UsageError(`several accounts exist: name one with --account or --key\n${CREATE_USAGE}`);
}

export async function brainsCommand(args: string[], io: CliIo): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      key: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  switch (action) {
    case 'create': {
      const name = values.name ?? positionals[0];
      if (name === undefined) throw new UsageError(CREATE_USAGE);
      const brain = await withDomain(async (domain) =>
        createBrain(domain, await resolveAccount(domain, values), { name }),
      );
      io.out(values.json ? JSON.stringify(brain) : `Created ${brain.id} "${brain.name}" in ${brain.account_id}`);
      return;
    }
    case 'list': {
      const page = await withDomain((domain) => domain.store.brains.list(values.account, { limit: 1000, offset: 0 }));
      if (values.json) io.out(JSON.stringify(page.rows));
      else
        io.out(
          table(page.rows as unknown as Record<string, unknown>[], [
            'id',
            'name',
            'account_id',
            'snapshot_count',
            'edge_count',
            'memory_count',
            'created_at',
          ]),
        );
      return;
    }
    default:
      throw new UsageError('usage: snapgraph brains create|list');
  }
}
