import { parseArgs } from 'node:util';
import { createBrain } from '../../domain/brains.js';
import { notFound } from '../../errors.js';
import { table, UsageError, type CliIo } from '../io.js';
import { withDomain } from '../with-domain.js';

export async function brainsCommand(args: string[], io: CliIo): Promise<void> {
  const [action, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: { account: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  switch (action) {
    case 'create': {
      if (!values.account || values.name === undefined) {
        throw new UsageError('usage: snapgraph brains create --account <account_id> --name <name>');
      }
      const account = values.account;
      const name = values.name;
      const brain = await withDomain(async (domain) => {
        if (!(await domain.store.getAccount(account))) throw notFound('account');
        return createBrain(domain, account, { name });
      });
      io.out(values.json ? JSON.stringify(brain) : `Created ${brain.id} "${brain.name}" in ${brain.account_id}`);
      return;
    }
    case 'list': {
      const page = await withDomain((domain) => domain.store.listBrains(values.account, { limit: 1000, offset: 0 }));
      if (values.json) io.out(JSON.stringify(page.rows));
      else
        io.out(
          table(page.rows as unknown as Record<string, unknown>[], [
            'id',
            'name',
            'account_id',
            'snapshot_count',
            'edge_count',
            'created_at',
          ]),
        );
      return;
    }
    default:
      throw new UsageError('usage: snapgraph brains create|list');
  }
}
