import { run } from '../answer.js';
import { nextCursor, offsetFrom, rankedFetch, SUGGESTIONS_WINDOW } from '../ranked-pages.js';
import { summariesById } from '../summaries.js';
import { Cursor, EdgeType, PageSize, SnapshotId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerSuggestLinks: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'suggest_links',
    {
      title: 'Suggest links for a snapshot',
      description:
        'Edges the service would make between this snapshot and others of its brain, best first, with a score and a reason. ' +
        'Nothing is created: accept one by calling link_snapshots with its source_id, target_id and edge_type. ' +
        'next_cursor pages further (the best 50 can be paged).',
      inputSchema: {
        id: SnapshotId,
        edge_type: EdgeType.optional(),
        limit: PageSize(10, SUGGESTIONS_WINDOW),
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, edge_type, limit, cursor }, extra) =>
      run(async () => {
        const signal = extra.signal;
        const offset = offsetFrom(cursor, 'suggest_links');
        const list = await client.snapshots.suggestions(
          id,
          { edge_type, limit: rankedFetch(offset, limit, SUGGESTIONS_WINDOW) },
          { signal },
        );
        const page = list.data.slice(offset, offset + limit);
        const other = (s: (typeof list.data)[number]) => (s.source_id === id ? s.target_id : s.source_id);
        const names = await summariesById(client, page.map(other), signal);
        return {
          count: list.count,
          suggestions: page.map((s) => ({
            source_id: s.source_id,
            target_id: s.target_id,
            edge_type: s.edge_type,
            strength: s.strength,
            score: s.score,
            reason: s.reason,
            other: names.get(other(s)) ?? { id: other(s) },
          })),
          next_cursor: nextCursor(offset, page.length, list.count, SUGGESTIONS_WINDOW),
        };
      }),
  );
};
