import { z } from 'zod';
import { run } from '../answer.js';
import { nextCursor, offsetFrom, SEARCH_OFFSET_MAX } from '../ranked-pages.js';
import { oneLiner } from '../summaries.js';
import { Cursor, PageSize, SnapshotType } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerSearchSnapshots: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'search_snapshots',
    {
      title: 'Search snapshots',
      description:
        'Find snapshots (beliefs, models, rules, convictions, principles) by words, ranked by relevance with the knowledge graph influencing the order. ' +
        'Returns ids, names, one-liners and scores, plus contradicting snapshots, with next_cursor when more results exist. ' +
        'Use open_snapshot with an id to read a result in full. Query syntax: plain words (stemmed), "an exact phrase", word* for a prefix.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for, 1 to 500 characters'),
        type: SnapshotType.optional(),
        tag: z.string().min(1).max(64).optional().describe('Only snapshots with this tag'),
        brain_id: z.string().min(1).optional().describe("Brain to search (brain_…); default: the key's brain"),
        limit: PageSize(10, 50),
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, type, tag, brain_id, limit, cursor }, extra) =>
      run(async () => {
        const offset = offsetFrom(cursor, 'search_snapshots');
        const page = await client.snapshots.search(
          { q: query, type, tag, brain_id, limit, offset },
          { signal: extra.signal },
        );
        return {
          query: page.query,
          count: page.count,
          results: page.data.map((r) => ({
            id: r.id,
            name: r.name,
            type: r.type,
            one_liner: oneLiner(r),
            score: Number(r.similarity),
            ...(r.contradicted_by.length > 0
              ? { contradicted_by: r.contradicted_by.map((c) => ({ id: c.snapshot_id, name: c.name })) }
              : {}),
          })),
          next_cursor: nextCursor(offset, page.data.length, page.count, SEARCH_OFFSET_MAX + 1),
        };
      }),
  );
};
