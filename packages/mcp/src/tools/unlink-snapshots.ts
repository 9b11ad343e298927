import { z } from 'zod';
import { run } from '../answer.js';
import type { RegisterTool } from './context.js';

export const registerUnlinkSnapshots: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'unlink_snapshots',
    {
      title: 'Remove an edge',
      description:
        'Delete one edge by its id (edge_…, from list_neighbours or link_snapshots). Both snapshots stay; the service will not re-create this edge by itself.',
      inputSchema: { edge_id: z.string().min(1).describe('The edge id (edge_…)') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ edge_id }, extra) =>
      run(async () => {
        await client.edges.delete(edge_id, { signal: extra.signal });
        return { deleted: { edge_id } };
      }),
  );
};
