import { z } from 'zod';
import { run } from '../answer.js';
import { summariesById } from '../summaries.js';
import { Cursor, EdgeType, PageSize, SnapshotId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerListNeighbours: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'list_neighbours',
    {
      title: "List a snapshot's neighbours",
      description:
        "The snapshots connected to one snapshot, newest edge first, with each edge (id, type, direction, strength) and the neighbour's id, name and one-liner. " +
        'direction "outgoing" means this snapshot is the edge\'s source. Paged: pass next_cursor back for more. Use open_snapshot to read a neighbour in full.',
      inputSchema: {
        id: SnapshotId,
        edge_type: EdgeType.optional(),
        min_strength: z.number().min(0).max(1).optional().describe('Only edges at least this strong, 0 to 1'),
        limit: PageSize(10, 50),
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, edge_type, min_strength, limit, cursor }, extra) =>
      run(async () => {
        const signal = extra.signal;
        const page = await client.edges.list(
          { snapshot_id: id, edge_type, min_strength, limit, cursor: cursor ?? '' },
          { signal },
        );
        const otherEnd = (edge: (typeof page.data)[number]) =>
          edge.source_id === id ? edge.target_id : edge.source_id;
        const names = await summariesById(client, page.data.map(otherEnd), signal);
        return {
          total: page.total,
          neighbours: page.data.map((edge) => ({
            edge_id: edge.id,
            edge_type: edge.edge_type,
            direction: edge.source_id === id ? 'outgoing' : 'incoming',
            strength: edge.strength,
            ...(edge.label ? { label: edge.label } : {}),
            snapshot: names.get(otherEnd(edge)) ?? { id: otherEnd(edge) },
          })),
          next_cursor: page.next_cursor ?? null,
        };
      }),
  );
};
