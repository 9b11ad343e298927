import { parseArgs } from 'node:util';
import { acceptCapture, listCaptures, rejectCapture } from '../../domain/crystallize/index.js';
import type { Domain } from '../../domain/context.js';
import { notFound } from '../../errors.js';
import type { Principal } from '../../model.js';
import { allBrains, operatorOf, resolveCliBrain } from '../brain-scope.js';
import { table, UsageError, type CliIo } from '../io.js';
import { withDomain } from '../with-domain.js';

const USAGE =
  'usage: snapgraph captures list [--brain <id or name>] [--json] | accept <capture_id> [--json] | reject <capture_id> [--json]';

/** Pending captures listed at most; more are paged over HTTP (GET /v1/captures). */
const LIST_LIMIT = 100;

/**
 * `snapgraph captures` (design §16.3): what `crystallize --review` left to decide, decided from
 * the terminal as `GET /v1/captures` and `POST /v1/captures/:id/accept|reject` do.
 */
export async function capturesCommand(args: string[], io: CliIo): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { brain: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  switch (action) {
    case 'list': {
      if (positionals.length > 0) throw new UsageError(USAGE);
      const page = await withDomain(async (domain) => {
        const brain = await resolveCliBrain(domain, values.brain, USAGE);
        return listCaptures(domain, operatorOf(brain), { brain_id: brain.id, limit: LIST_LIMIT, offset: 0 });
      });
      if (values.json) io.out(JSON.stringify({ data: page.rows, count: page.total }));
      else if (page.total === 0) io.out('No pending captures.');
      else {
        const rows = page.rows.map((c) => ({
          id: c.id,
          type: c.snapshot.type,
          name: c.snapshot.name,
          run_id: c.run_id,
        }));
        io.out(table(rows, ['id', 'type', 'name', 'run_id']));
        if (page.total > page.rows.length)
          io.out(`… ${page.total - page.rows.length} more (GET /v1/captures pages them)`);
      }
      return;
    }
    case 'accept':
    case 'reject': {
      const [id] = positionals;
      if (id === undefined || positionals.length > 1 || values.brain !== undefined) throw new UsageError(USAGE);
      if (action === 'accept') {
        const snapshot = await withDomain(async (domain) => acceptCapture(domain, await ownerOf(domain, id), id));
        io.out(
          values.json
            ? JSON.stringify({ data: snapshot })
            : `Accepted ${id}: ${snapshot.id}  ${snapshot.type}  ${snapshot.name}`,
        );
      } else {
        await withDomain(async (domain) => rejectCapture(domain, await ownerOf(domain, id), id));
        io.out(values.json ? JSON.stringify({ data: { success: true } }) : `Rejected ${id}.`);
      }
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
}

/** The account a pending capture belongs to, as its operator: the CLI sees every account. */
async function ownerOf(domain: Domain, captureId: string): Promise<Principal> {
  const seen = new Set<string>();
  for await (const brain of allBrains(domain)) {
    if (seen.has(brain.account_id)) continue;
    seen.add(brain.account_id);
    if (await domain.store.knowledge.getPendingCapture(brain.account_id, captureId)) return operatorOf(brain);
  }
  throw notFound('capture (or it was accepted or rejected already)');
}
