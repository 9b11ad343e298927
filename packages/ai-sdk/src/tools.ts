import { tool, type ToolExecutionOptions } from 'ai';
import type { CrystallizeResult, SnapgraphClient } from '@snapgraph/client';
import { z } from 'zod';
import { crystallized, foundEntry, foundSnapshot, keptMemory, recalledMemory } from './answers.js';

export interface SnapgraphToolsOptions {
  client: SnapgraphClient;
  /** The brain every tool works in; left out, the API key's own brain. The model cannot choose another. */
  brainId?: string;
}

// The service's own limits (design §12.1, §8.1, §11.1), so a model's out-of-range arguments are
// refused by the SDK with the schema's message before any request.
const Query = z.string().min(1).max(500).describe('What to look for, in words');
const Limit = (what: string) =>
  z.number().int().min(1).max(50).optional().describe(`How many ${what}, 1 to 50 (default 5)`);
const DEFAULT_LIMIT = 5;

/** The SDK's abort signal as the client takes it; `execute` called by hand may pass no options. */
function signalOf(options: ToolExecutionOptions | undefined): { signal?: ToolExecutionOptions['abortSignal'] } {
  return options?.abortSignal ? { signal: options.abortSignal } : {};
}

/**
 * Snapgraph as Vercel AI SDK tools (design §23.4), for `generateText({ tools })`:
 * `remember` and `recall` for memories, `searchKnowledge` over snapshots and knowledge entries,
 * `crystallize` to turn text into linked snapshots. Each `execute` answers compact JSON.
 */
export function snapgraphTools({ client, brainId }: SnapgraphToolsOptions) {
  if (!client) throw new TypeError('snapgraphTools: `client` (a SnapgraphClient) is required');
  const brain = brainId === undefined ? {} : { brain_id: brainId };

  return {
    remember: tool({
      description:
        'Keep a memory as it was said: a fact, decision, preference or event about the user, a project or a person. ' +
        'Found again later with recall. Answers the new memory id.',
      inputSchema: z.object({
        content: z.string().min(1).max(10_000).describe('What to remember, 1 to 10,000 characters'),
        speaker: z.string().min(1).max(200).optional().describe('Who said it or holds it'),
        session_id: z.string().min(1).max(200).optional().describe('The conversation it belongs to'),
        memory_type: z
          .enum(['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'])
          .optional()
          .describe('fact (default), decision, insight, story, framework, preference or event'),
      }),
      execute: async (input, options) =>
        keptMemory(await client.memories.create({ ...input, ...brain }, signalOf(options))),
    }),

    recall: tool({
      description:
        'Find memories kept with remember by words, best first: what was said, by whom, when. ' +
        'A memory with superseded_by set was replaced by a newer one.',
      inputSchema: z.object({ query: Query, limit: Limit('memories') }),
      execute: async ({ query, limit = DEFAULT_LIMIT }, options) => {
        const found = await client.memories.search({ query, limit, ...brain }, signalOf(options));
        return { count: found.count, results: found.data.map(recalledMemory) };
      },
    }),

    searchKnowledge: tool({
      description:
        'Search what the brain knows, best first: its snapshots (beliefs, principles, models, insights with a name and a core statement) ' +
        'and the entries of ingested sources (concepts, frameworks, quotes… from books, courses, documents).',
      inputSchema: z.object({ query: Query, limit: Limit('snapshots and how many entries') }),
      execute: async ({ query, limit = DEFAULT_LIMIT }, options) => {
        const [snapshots, entries] = await Promise.all([
          client.snapshots.search({ q: query, limit, ...brain }, signalOf(options)),
          client.knowledge.search({ query, limit, ...brain }, signalOf(options)),
        ]);
        return { snapshots: snapshots.data.map(foundSnapshot), knowledge: entries.data.map(foundEntry) };
      },
    }),

    crystallize: tool({
      description:
        'Turn free text (notes, a transcript, an article) into linked snapshots: the service extracts the insights, ' +
        'skips what the brain already holds and links the new ones. Answers the new snapshots.',
      inputSchema: z.object({
        text: z.string().min(50).max(100_000).describe('The text to crystallize, 50 to 100,000 characters'),
        source_type: z
          .string()
          .regex(/^[a-z0-9_-]{1,64}$/)
          .optional()
          .describe('How the text was captured, e.g. "chat", "meeting", "notes" (default "api")'),
      }),
      // As a job (design §14): a long text outlasts an HTTP request; the SDK's abort stops the wait.
      execute: async ({ text, source_type }, options) => {
        const signal = signalOf(options);
        const { job_id } = await client.crystallize.text({ text, source_type, ...brain }, { async: true, ...signal });
        const job = await client.waitForJob<CrystallizeResult>(job_id, { pollMs: 250, ...signal });
        return crystallized(job.result);
      },
    }),
  };
}
