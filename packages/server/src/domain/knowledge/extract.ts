import { ENTRY_TYPES, type EntryType } from '../../model.js';
import type { ChatUsage } from '../../providers/index.js';
import { compute } from '../compute/index.js';
import { turnAfterRows } from '../turns.js';
import type { Domain } from '../context.js';
import { clip } from '../crystallize/index.js';
import type { TextFormat } from '../extraction/index.js';
import { askPerChunk } from '../llm/index.js';
import type { WorkOptions } from '../crystallize/index.js';

export const ENTRY_LIMITS = { title: 500, content: 20_000 } as const;

/** An entry as an extractor proposes it, made valid. */
export interface ProposedEntry {
  entry_type: EntryType;
  title: string;
  content: string;
  /** The heading path of the Markdown section it came from (the built-in extractor's). */
  section?: string;
}

const ENTRIES_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['entries'],
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['entry_type', 'title', 'content'],
        properties: {
          entry_type: { type: 'string', enum: [...ENTRY_TYPES] },
          title: { type: 'string', minLength: 1 },
          content: { type: 'string', minLength: 1 },
        },
      },
    },
  },
} as const;

const SYSTEM = `You extract the specific knowledge a source teaches, as entries. entry_type is one of: concept (an idea),
framework (a structured way of thinking), protocol (a procedure to follow), principle (a guiding truth), technique
(a practical method), quote (a memorable line, quoted exactly, with who said it), case_study (a worked example), definition
(what a term means). title: a short name for the entry. content: the entry itself, complete enough to use without the source.
Do not invent anything the source does not say.`;

export interface SourceDescription {
  title: string;
  author: string | null;
  domain: string | null;
  source_type: string;
}

/**
 * The entries of a source: from its content by the LLM (one call per chunk) or the built-in
 * extractor; with an LLM and no content, from what the model knows of the title.
 */
export async function extractEntries(
  { llm, compute: pool }: Pick<Domain, 'llm' | 'compute'>,
  source: SourceDescription,
  content: string | undefined,
  options: WorkOptions & { format?: TextFormat | undefined },
): Promise<{ entries: ProposedEntry[]; usage: ChatUsage }> {
  const progress = (done: number, total: number) => options.progress?.({ phase: 'extract', done, total });
  // A job shows its phase from the start, not 'queued' until its first chunk is done.
  progress(0, 0);
  if (!llm) {
    const context = { title: source.title, domain: source.domain, format: options.format };
    // On the compute pool: a megabyte of text must not hold up other requests.
    const entries = await compute(
      { compute: pool },
      'extractKnowledgeEntries',
      [content ?? '', context],
      options.signal,
    );
    progress(1, 1);
    return { entries: await clean(entries), usage: { tokensIn: 0, tokensOut: 0 } };
  }
  const about = `${source.source_type} "${source.title}"${source.author ? ` by ${source.author}` : ''}${
    source.domain ? ` (domain: ${source.domain})` : ''
  }`;
  const text =
    content === undefined
      ? `The ${about}. List the knowledge it is known for teaching.`
      : await compute({ compute: pool }, 'plainText', [content, options.format], options.signal);
  const { answers, usage } = await askPerChunk<{ entries: unknown[] }>(
    llm,
    text,
    (chunk) => ({
      name: 'entries',
      schema: ENTRIES_SCHEMA,
      system: `${SYSTEM}\nThe source is the ${about}.`,
      user: chunk,
      signal: options.signal,
    }),
    progress,
  );
  return { entries: await clean(answers.flatMap((a) => a.entries)), usage };
}

/** Valid entries only, each once (the same type, title and content twice is one entry); a megabyte's in turns. */
async function clean(raw: unknown[]): Promise<ProposedEntry[]> {
  const seen = new Set<string>();
  const out: ProposedEntry[] = [];
  const items = raw as { entry_type?: unknown; title?: unknown; content?: unknown; section?: unknown }[];
  for (const [i, item] of items.entries()) {
    await turnAfterRows(i);
    const content = clip(item?.content, ENTRY_LIMITS.content);
    const title = clip(item?.title, ENTRY_LIMITS.title) ?? (content && clip(content, 80));
    const entryType = ENTRY_TYPES.includes(item?.entry_type as EntryType) ? (item.entry_type as EntryType) : 'concept';
    if (!content || !title) continue;
    const key = `${entryType}\n${title}\n${content}`.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const section = clip(item.section, ENTRY_LIMITS.title);
    out.push(
      section === undefined
        ? { entry_type: entryType, title, content }
        : { entry_type: entryType, title, content, section },
    );
  }
  return out;
}
