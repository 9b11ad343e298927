import { parseArgs } from 'node:util';
import { searchSnapshots, type SearchPage } from '../../domain/search/index.js';
import { positiveInteger, UsageError, type CliIo } from '../io.js';
import { operatorOf, resolveCliBrain } from '../brain-scope.js';
import { withDomain } from '../with-domain.js';

const USAGE = 'usage: snapgraph search <query> [--brain <id or name>] [--limit N] [--no-graph] [--json]';

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
    const brain = await resolveCliBrain(domain, values.brain, USAGE);
    return searchSnapshots(domain, operatorOf(brain), {
      q,
      limit,
      offset: 0,
      graph: !values['no-graph'],
      explain: false,
    });
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
