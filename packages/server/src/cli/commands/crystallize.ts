import { parseArgs } from 'node:util';
import { crystallize, type CrystallizeResult } from '../../domain/crystallize/index.js';
import { CRYSTALLIZE_TEXT, SOURCE_TYPE_PATTERN } from '../../http/schemas/crystallize.js';
import { UsageError, type CliIo } from '../io.js';
import { operatorOf, resolveCliBrain } from '../brain-scope.js';
import { progressOnStderr, readTextArgument } from '../text-input.js';
import { withDomain } from '../with-domain.js';

const USAGE =
  'usage: snapgraph crystallize <file|-> [--brain <id or name>] [--review] [--source-type <type>] [--no-link] [--json]';

/**
 * `snapgraph crystallize`: a file (or standard input) into snapshots of a brain, as
 * POST /v1/crystallize does, with the LLM when LLM_BASE_URL is set and the built-in extractor
 * otherwise. `--json` prints the API's body.
 */
export async function crystallizeCommand(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      brain: { type: 'string' },
      review: { type: 'boolean', default: false },
      'source-type': { type: 'string', default: 'cli' },
      'no-link': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const sourceType = values['source-type'];
  if (!new RegExp(SOURCE_TYPE_PATTERN).test(sourceType)) {
    throw new UsageError('--source-type must be 1 to 64 of a-z, 0-9, _ and -');
  }
  const text = await readTextArgument(positionals[0], CRYSTALLIZE_TEXT, USAGE);
  const result = await withDomain(
    async (domain) => {
      const brain = await resolveCliBrain(domain, values.brain, USAGE);
      return crystallize(
        domain,
        operatorOf(brain),
        { text, brain_id: brain.id, review: values.review, source_type: sourceType, auto_link: !values['no-link'] },
        { progress: values.json ? undefined : progressOnStderr() },
      );
    },
    { migrate: true, llm: true },
  );
  io.out(values.json ? JSON.stringify(result) : summary(result));
}

function summary(result: CrystallizeResult): string {
  const { data, meta, usage, run_id } = result;
  const lines = data.captures
    ? data.captures.map((c) => `${c.id}  ${c.snapshot.type.padEnd(10)}  ${c.snapshot.name}`)
    : data.snapshots.map((s) => `${s.id}  ${s.type.padEnd(10)}  ${s.name}`);
  const made = data.captures
    ? `${data.captures.length} capture(s) to review (snapgraph captures accept <id> | reject <id>)`
    : `${data.count} snapshot(s) and ${data.edges.length} automatic edge(s)`;
  return [
    ...lines,
    `${made}; run ${run_id}: ${meta.rawInsightCount} insight(s) found, ${meta.refinedCount} after merging, ` +
      `${meta.finalCount} new to the brain; ${usage.model}, ${usage.totalTokens} token(s), ${meta.durationMs} ms`,
  ].join('\n');
}
