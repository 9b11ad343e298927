import { parseArgs } from 'node:util';
import { listMemories, MEMORY_LIMITS, rememberMemory, searchMemories } from '../../domain/memories/index.js';
import { MEMORY_TYPES, type Memory, type MemoryType } from '../../model.js';
import { operatorOf, resolveCliBrain } from '../brain-scope.js';
import { positiveInteger, UsageError, type CliIo } from '../io.js';
import { withDomain } from '../with-domain.js';

const USAGE = `usage: snapgraph memories add <text> [--speaker S] [--session ID] [--type T] [--occurred-at ISO] [--brain <id or name>] [--json]
       snapgraph memories list [--speaker S] [--session ID] [--limit N] [--brain <id or name>] [--json]
       snapgraph memories search <query> [--speaker S] [--session ID] [--limit N] [--brain <id or name>] [--json]`;

/** The API's largest page and search limit: the CLI asks no more of the domain than HTTP may. */
const MAX_LIMIT = 100;

/** A memory's text on one terminal line. */
const SHOWN_CHARACTERS = 100;

/**
 * `snapgraph memories` (design §16.3): memories are seen and kept from a terminal as they are
 * over HTTP — `add` is POST /v1/memories, `list` GET /v1/memories, `search` POST
 * /v1/memories/search — with the same validation and, with --json, the same bodies.
 */
export async function memoriesCommand(args: string[], io: CliIo): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      brain: { type: 'string' },
      speaker: { type: 'string' },
      session: { type: 'string' },
      type: { type: 'string' },
      'occurred-at': { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const text = positionals.join(' ');
  const limit = positiveInteger('--limit', values.limit);
  if (limit !== undefined && limit > MAX_LIMIT)
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  const onlyFor = (allowed: string[]) => {
    for (const flag of ['type', 'occurred-at', 'limit'] as const) {
      if (values[flag] !== undefined && !allowed.includes(flag))
        throw new UsageError(`--${flag} is not an option of memories ${action}\n${USAGE}`);
    }
  };
  // What the API's schema checks before the domain sees a request, checked here as plainly.
  if (values.type !== undefined && !(MEMORY_TYPES as readonly string[]).includes(values.type))
    throw new UsageError(`--type must be one of: ${MEMORY_TYPES.join(', ')}`);
  if (values.speaker !== undefined && (values.speaker.length < 1 || values.speaker.length > MEMORY_LIMITS.speaker))
    throw new UsageError(`--speaker must have 1 to ${MEMORY_LIMITS.speaker} characters`);
  switch (action) {
    case 'add': {
      onlyFor(['type', 'occurred-at']);
      if (text.trim() === '') throw new UsageError(USAGE);
      const memory = await withDomain(async (domain) => {
        const brain = await resolveCliBrain(domain, values.brain, USAGE);
        return rememberMemory(domain, operatorOf(brain), {
          content: text,
          ...(values.speaker !== undefined && { speaker: values.speaker }),
          ...(values.session !== undefined && { session_id: values.session }),
          ...(values.type !== undefined && { memory_type: values.type as MemoryType }),
          ...(values['occurred-at'] !== undefined && { occurred_at: values['occurred-at'] }),
        });
      });
      io.out(values.json ? JSON.stringify({ data: memory }) : `Remembered: ${oneLine(memory)}`);
      return;
    }
    case 'list': {
      onlyFor(['limit']);
      if (positionals.length > 0) throw new UsageError(USAGE);
      const page = await withDomain(async (domain) => {
        const brain = await resolveCliBrain(domain, values.brain, USAGE);
        return listMemories(domain, operatorOf(brain), {
          brain_id: brain.id,
          speaker: values.speaker,
          session_id: values.session,
          limit: limit ?? 50,
          offset: 0,
        });
      });
      if (values.json) io.out(JSON.stringify({ data: page.rows, count: page.total }));
      else if (page.total === 0) io.out('No memories.');
      else {
        io.out(page.rows.map(oneLine).join('\n'));
        io.out(`${page.rows.length} of ${page.total} memor${page.total === 1 ? 'y' : 'ies'}, newest first`);
      }
      return;
    }
    case 'search': {
      onlyFor(['limit']);
      if (text.trim() === '') throw new UsageError(USAGE);
      const found = await withDomain(async (domain) => {
        const brain = await resolveCliBrain(domain, values.brain, USAGE);
        return searchMemories(domain, operatorOf(brain), {
          query: text,
          brain_id: brain.id,
          speaker: values.speaker,
          session_id: values.session,
          limit: limit ?? 10,
        });
      });
      if (values.json) io.out(JSON.stringify(found));
      else if (found.data.length === 0) io.out(`No memory matches "${found.query}".`);
      else {
        io.out(found.data.map((m) => `${m.score.toFixed(4)}  ${oneLine(m)}`).join('\n'));
        io.out(`${found.data.length} of ${found.count} result(s) for "${found.query}"`);
      }
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
}

/** When, id, who, which conversation and what, on one line. */
function oneLine(memory: Memory): string {
  const content = memory.content.replace(/\s+/g, ' ');
  const shown = content.length > SHOWN_CHARACTERS ? `${content.slice(0, SHOWN_CHARACTERS - 1)}…` : content;
  const who = memory.speaker ? `${memory.speaker}: ` : '';
  const session = memory.session_id ? `  [${memory.session_id}]` : '';
  return `${memory.occurred_at}  ${memory.id}${session}  ${who}${shown}`;
}
