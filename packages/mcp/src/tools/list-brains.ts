import { run } from '../answer.js';
import { Cursor, PageSize } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerListBrains: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'list_brains',
    {
      title: 'List brains',
      description:
        "The brains (separate knowledge graphs) this key can use, with their ids, names and sizes. Tools default to the key's own brain; pass a brain_id to work in another.",
      inputSchema: { limit: PageSize(20, 100), cursor: Cursor },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ limit, cursor }, extra) =>
      run(async () => {
        const offset = cursor === undefined || cursor === '' ? 0 : Number(cursor);
        if (!Number.isInteger(offset) || offset < 0)
          throw new TypeError('cursor must be a next_cursor from list_brains');
        const page = await client.brains.list({ limit, offset }, { signal: extra.signal });
        const next = offset + page.data.length;
        return {
          count: page.count,
          brains: page.data.map((b) => ({
            id: b.id,
            name: b.name,
            snapshot_count: b.snapshot_count,
            edge_count: b.edge_count,
            memory_count: b.memory_count,
          })),
          next_cursor: next < page.count && page.data.length > 0 ? String(next) : null,
        };
      }),
  );
};
