import { run } from '../answer.js';
import { summariesById } from '../summaries.js';
import { EdgeType, PageSize, SnapshotId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerSuggestLinks: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'suggest_links',
    {
      title: 'Suggest links for a snapshot',
      description:
        'Edges the service would make between this snapshot and others of its brain, best first, with a score and a reason. ' +
        'Nothing is created: accept one by calling link_snapshots with its source_id, target_id and edge_type.',
      inputSchema: { id: SnapshotId, edge_type: EdgeType.optional(), limit: PageSize(10, 50) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id, edge_type, limit }, extra) =>
      run(async () => {
        const signal = extra.signal;
        const list = await client.snapshots.suggestions(id, { edge_type, limit }, { signal });
        const other = (s: (typeof list.data)[number]) => (s.source_id === id ? s.target_id : s.source_id);
        const names = await summariesById(client, list.data.map(other), signal);
        return {
          count: list.count,
          suggestions: list.data.map((s) => ({
            source_id: s.source_id,
            target_id: s.target_id,
            edge_type: s.edge_type,
            strength: s.strength,
            score: s.score,
            reason: s.reason,
            other: names.get(other(s)) ?? { id: other(s) },
          })),
        };
      }),
  );
};
