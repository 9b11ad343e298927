import { z } from 'zod';
import { run } from '../answer.js';
import { firstLine } from '../summaries.js';
import { BrainId, EntryType, PageSize } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerSearchKnowledge: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'search_knowledge',
    {
      title: 'Search knowledge entries',
      description:
        'Find knowledge entries (concepts, frameworks, techniques, quotes, definitions… from ingested sources) by words, best first. ' +
        'Returns ids, types, titles, the start of each entry, its mastery and score; open_knowledge reads one in full. For beliefs and principles use search_snapshots.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for'),
        entry_type: EntryType.optional(),
        domain: z.string().min(1).max(200).optional().describe('Only entries of this domain'),
        brain_id: BrainId('Brain to search'),
        limit: PageSize(10, 50),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, entry_type, domain, brain_id, limit }, extra) =>
      run(async () => {
        const found = await client.knowledge.search(
          { query, entry_type, domain, brain_id, limit },
          { signal: extra.signal },
        );
        return {
          query: found.query,
          count: found.count,
          results: found.data.map((e) => ({
            id: e.id,
            source_id: e.source_id,
            entry_type: e.entry_type,
            title: e.title,
            excerpt: firstLine(e.content),
            mastery: e.mastery,
            score: Number(e.similarity),
          })),
        };
      }),
  );
};
