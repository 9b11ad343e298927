import { z } from 'zod';
import { run } from '../answer.js';
import { nextCursor, offsetFrom, rankedFetch, RANKED_WINDOW } from '../ranked-pages.js';
import { firstLine } from '../summaries.js';
import { BrainId, Cursor, EntryType, PageSize } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerSearchKnowledge: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'search_knowledge',
    {
      title: 'Search knowledge entries',
      description:
        'Find knowledge entries (concepts, frameworks, techniques, quotes, definitions… from ingested sources) by words, best first. ' +
        'Returns ids, types, titles, the start of each entry, its mastery and score, with next_cursor when more results exist (the best 100 can be paged); open_knowledge reads one in full. For beliefs and principles use search_snapshots.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for'),
        entry_type: EntryType.optional(),
        domain: z.string().min(1).max(200).optional().describe('Only entries of this domain'),
        brain_id: BrainId('Brain to search'),
        limit: PageSize(10, 50),
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, entry_type, domain, brain_id, limit, cursor }, extra) =>
      run(async () => {
        const offset = offsetFrom(cursor, 'search_knowledge');
        const found = await client.knowledge.search(
          { query, entry_type, domain, brain_id, limit: rankedFetch(offset, limit) },
          { signal: extra.signal },
        );
        const page = found.data.slice(offset, offset + limit);
        return {
          query: found.query,
          count: found.count,
          results: page.map((e) => ({
            id: e.id,
            source_id: e.source_id,
            entry_type: e.entry_type,
            title: e.title,
            excerpt: firstLine(e.content),
            mastery: e.mastery,
            score: Number(e.similarity),
          })),
          next_cursor: nextCursor(offset, page.length, found.count, RANKED_WINDOW),
        };
      }),
  );
};
