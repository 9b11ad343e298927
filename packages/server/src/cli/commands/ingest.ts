import { parseArgs } from 'node:util';
import { ingestKnowledge, type KnowledgeIngestResult } from '../../domain/knowledge/index.js';
import { KNOWLEDGE_CONTENT_MAX } from '../../http/schemas/knowledge.js';
import { KNOWLEDGE_SOURCE_TYPES, type KnowledgeSourceType } from '../../model.js';
import { UsageError, type CliIo } from '../io.js';
import { operatorOf, resolveCliBrain } from '../brain-scope.js';
import { progressOnStderr, readTextArgument } from '../text-input.js';
import { withDomain } from '../with-domain.js';

const USAGE =
  `usage: snapgraph ingest <file|-> --title <title> --source-type <${KNOWLEDGE_SOURCE_TYPES.join('|')}> ` +
  '[--author <name>] [--url <url>] [--domain <domain>] [--brain <id or name>] [--no-snapshots] [--json]';

/** `snapgraph ingest`: a file (or standard input) as a knowledge source, as POST /v1/specific-knowledge/ingest does. */
export async function ingestCommand(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      title: { type: 'string' },
      'source-type': { type: 'string' },
      author: { type: 'string' },
      url: { type: 'string' },
      domain: { type: 'string' },
      brain: { type: 'string' },
      'no-snapshots': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const title = values.title?.trim();
  const sourceType = values['source-type'] as KnowledgeSourceType | undefined;
  if (positionals.length !== 1 || !title || sourceType === undefined) throw new UsageError(USAGE);
  if (!KNOWLEDGE_SOURCE_TYPES.includes(sourceType)) {
    throw new UsageError(`--source-type must be one of ${KNOWLEDGE_SOURCE_TYPES.join(', ')}`);
  }
  if (title.length > 500) throw new UsageError('--title must have at most 500 characters');
  const content = await readTextArgument(positionals[0], { min: 1, max: KNOWLEDGE_CONTENT_MAX }, USAGE);
  const result = await withDomain(
    async (domain) => {
      const brain = await resolveCliBrain(domain, values.brain, USAGE);
      return ingestKnowledge(
        domain,
        operatorOf(brain),
        {
          source_type: sourceType,
          title,
          content,
          author: values.author,
          url: values.url,
          domain: values.domain,
          brain_id: brain.id,
          create_snapshots: !values['no-snapshots'],
        },
        { progress: values.json ? undefined : progressOnStderr() },
      );
    },
    { migrate: true, llm: true },
  );
  io.out(values.json ? JSON.stringify(result) : summary(result));
}

function summary({ data }: KnowledgeIngestResult): string {
  return [
    ...data.entries.map((e) => `${e.id}  ${e.entry_type.padEnd(10)}  ${e.title}`),
    `source ${data.source_id}: ${data.entries_count} entr${data.entries_count === 1 ? 'y' : 'ies'}, ` +
      `${data.snapshots.length} new snapshot(s), ${data.edges.length} automatic edge(s)`,
  ].join('\n');
}
