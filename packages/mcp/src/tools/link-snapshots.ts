import { z } from 'zod';
import { run } from '../answer.js';
import { EdgeType, SnapshotId, Unit } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerLinkSnapshots: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'link_snapshots',
    {
      title: 'Link two snapshots',
      description:
        'Create a typed, weighted edge from source to target (both in the same brain). ' +
        'Pick the edge_type by direction: "A supports B" means source A, target B. ' +
        'Fails with CONFLICT when that edge already exists. To accept a suggestion from suggest_links, pass its source_id, target_id and edge_type.',
      inputSchema: {
        source_id: SnapshotId.describe("Snapshot on the 'from' side (snap_…)"),
        target_id: SnapshotId.describe("Snapshot on the 'to' side (snap_…)"),
        edge_type: EdgeType,
        strength: Unit('How strong the connection is, 0 to 1 (default 0.5)').optional(),
        label: z.string().max(500).optional().describe('A short human-readable reason for the connection'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ source_id, target_id, edge_type, strength, label }, extra) =>
      run(async () => {
        const edge = await client.edges.create(
          {
            source_id,
            target_id,
            edge_type,
            ...(strength !== undefined ? { strength } : {}),
            ...(label ? { label } : {}),
          },
          { signal: extra.signal },
        );
        return {
          edge: {
            id: edge.id,
            source_id: edge.source_id,
            target_id: edge.target_id,
            edge_type: edge.edge_type,
            strength: edge.strength,
            label: edge.label,
          },
        };
      }),
  );
};
