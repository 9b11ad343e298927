import { tool } from '@langchain/core/tools';
import type { SnapgraphClient } from '@snapgraph/client';
import { z } from 'zod';

export interface SnapgraphToolsOptions {
  client: SnapgraphClient;
  /** The brain every tool works in; left out, the API key's own brain. The model cannot choose another. */
  brainId?: string;
}

/** The most characters of one memory or snapshot core a tool answer carries, to keep answers small. */
const TEXT_MAX = 1_000;

function cut(text: string): string {
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}

/**
 * Tools for a LangChain agent (design §23.3): `snapgraph_remember` keeps a memory,
 * `snapgraph_recall` finds memories, `snapgraph_search` finds snapshots of the knowledge graph.
 * Each answers compact JSON (ids, scores, the text cut at 1,000 characters); a refusal of the
 * service is thrown as the client's `SnapgraphError`, which the agent's tool node reports.
 */
export function snapgraphTools({ client, brainId }: SnapgraphToolsOptions) {
  const brain = brainId === undefined ? {} : { brain_id: brainId };

  const remember = tool(
    async ({ content, speaker, session_id, memory_type }) => {
      const memory = await client.memories.create({ content, speaker, session_id, memory_type, ...brain });
      return JSON.stringify({
        id: memory.id,
        memory_type: memory.memory_type,
        speaker: memory.speaker,
        session_id: memory.session_id,
        occurred_at: memory.occurred_at,
      });
    },
    {
      name: 'snapgraph_remember',
      description:
        'Keep a memory as it was said: a fact, decision, preference or event about the user, a project or a person. ' +
        'Found again later with snapgraph_recall. Answers the new memory id.',
      schema: z.object({
        content: z.string().min(1).max(10_000).describe('What to remember, 1 to 10,000 characters'),
        speaker: z.string().min(1).max(200).optional().describe('Who said it or holds it'),
        session_id: z.string().min(1).max(200).optional().describe('The conversation it belongs to'),
        memory_type: z
          .enum(['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'])
          .optional()
          .describe('fact (default), decision, insight, story, framework, preference or event'),
      }),
    },
  );

  const recall = tool(
    async ({ query, limit }) => {
      const found = await client.memories.search({ query, limit, ...brain });
      return JSON.stringify({
        count: found.count,
        results: found.data.map((m) => ({
          id: m.id,
          content: cut(m.content),
          speaker: m.speaker,
          occurred_at: m.occurred_at,
          session_id: m.session_id,
          score: m.score,
          superseded_by: (m as { superseded_by?: string | null }).superseded_by ?? null,
        })),
      });
    },
    {
      name: 'snapgraph_recall',
      description:
        'Find memories kept with snapgraph_remember by words, best first: what was said, by whom, when. ' +
        'A memory with superseded_by set was replaced by a newer one.',
      schema: z.object({
        query: z.string().min(1).max(500).describe('What to look for'),
        limit: z.number().int().min(1).max(50).default(5).describe('How many memories, 1 to 50 (default 5)'),
      }),
    },
  );

  const search = tool(
    async ({ query, limit }) => {
      const found = await client.snapshots.search({ q: query, limit, ...brain });
      return JSON.stringify({
        count: found.count,
        results: found.data.map((s) => ({
          id: s.id,
          name: s.name,
          type: s.type,
          core: cut(s.core),
          score: s.score,
        })),
      });
    },
    {
      name: 'snapgraph_search',
      description:
        'Search the knowledge graph: snapshots (beliefs, principles, models, insights with a name and a core statement), best first.',
      schema: z.object({
        query: z.string().min(1).max(500).describe('What to look for'),
        limit: z.number().int().min(1).max(50).default(5).describe('How many snapshots, 1 to 50 (default 5)'),
      }),
    },
  );

  return [remember, recall, search] as const;
}
