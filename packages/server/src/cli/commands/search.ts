import { parseArgs } from 'node:util';
import type { Domain } from '../../domain/context.js';
import { searchSnapshots, type SearchPage } from '../../domain/search/index.js';
import { notFound } from '../../errors.js';
import type { BrainWithCounts } from '../../model.js';
import { positiveInteger, UsageError, type CliIo } from '../io.js';
import { withDomain } from '../with-domain.js';

const USAGE = 'usage: snapgraph search <query> [--brain <brain_id>] [--limit N] [--no-graph] [--json]';

/** The brain searched: the one named, or on an install with a single brain, that one. */
async function resolveBrain(domain: Domain, brainId: string | undefined): Promise<BrainWithCounts> {
  if (brainId !== undefined) {
    const brain = await domain.store.getBrainUnscoped(brainId);
    if (!brain) throw notFound('brain');
    return brain;
  }
  const brains = await domain.store.listBrains(undefined, { limit: 2, offset: 0 });
  if (brains.total === 1) return brains.rows[0] as BrainWithCounts;
  throw new UsageError(
    brains.total === 0 ? 'there is no brain yet' : `several brains exist: name one with --brain\n${USAGE}`,
  );
}

/**
 * `snapgraph search`: the search API's ranking (text and graph; meaning needs the server's
 * embedding provider) for a quick look from a terminal, straight on the database.
 */
export async function searchCommand(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      brain: { type: 'string' },
      limit: { type: 'string' },
      'no-graph': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const q = positionals.join(' ').trim();
  if (q === '') throw new UsageError(USAGE);
  const limit = positiveInteger('--limit', values.limit) ?? 10;
  if (limit > 100) throw new UsageError('--limit must be a whole number from 1 to 100');
  const page = await withDomain(async (domain) => {
    const brain = await resolveBrain(domain, values.brain);
    const principal = {
      keyId: 'cli',
      accountId: brain.account_id,
      defaultBrainId: brain.id,
      plan: 'enterprise' as const,
      rpm: null,
      burst: null,
    };
    return searchSnapshots(domain, principal, { q, limit, offset: 0, graph: !values['no-graph'], explain: false });
  });
  io.out(values.json ? jsonBody(page) : lines(page));
}

function jsonBody(page: SearchPage): string {
  const data = page.results.map((r) => ({
    ...JSON.parse(r.json),
    score: r.score,
    similarity: r.score.toFixed(4),
    contradicted_by: r.contradicted_by,
  }));
  return JSON.stringify({ data, count: page.count, query: page.query });
}

/** One line a result: score, id, type, name, and what contradicts it. */
function lines(page: SearchPage): string {
  if (page.results.length === 0) return `No match for "${page.query}".`;
  const rows = page.results.map((r) => {
    const s = JSON.parse(r.json) as { id: string; type: string; name: string };
    const against = r.contradicted_by.map((c) => c.name).join('; ');
    return `${r.score.toFixed(4)}  ${s.id}  ${s.type.padEnd(10)}  ${s.name}${against ? `  (contradicted by: ${against})` : ''}`;
  });
  return [...rows, `${page.results.length} of ${page.count} result(s) for "${page.query}"`].join('\n');
}
