import { run } from '../answer.js';
import { oneLiner } from '../summaries.js';
import { BrainId, Cursor, PageSize } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerReviewCaptures: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'review_captures',
    {
      title: 'List captures waiting for review',
      description:
        'The snapshots crystallize_text proposed with review: true that nobody accepted or rejected yet, newest first: ids, names, types and one-liners, with next_cursor when more exist. ' +
        'Decide each with accept_capture or reject_capture.',
      inputSchema: { brain_id: BrainId('Brain whose captures to list'), limit: PageSize(20, 100), cursor: Cursor },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ brain_id, limit, cursor }, extra) =>
      run(async () => {
        const page = await client.captures.list({ brain_id, limit, cursor: cursor ?? '' }, { signal: extra.signal });
        return {
          count: page.count,
          captures: page.data.map((c) => ({
            id: c.id,
            run_id: c.run_id,
            name: c.snapshot.name,
            type: c.snapshot.type,
            one_liner: oneLiner(c.snapshot),
          })),
          next_cursor: page.next_cursor ?? null,
        };
      }),
  );
};
