import { z } from 'zod';
import { run } from '../answer.js';
import { boundedSummaries } from '../summaries.js';
import { AutoLink } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerPromoteMemory: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'promote_memory',
    {
      title: 'Promote a memory into snapshots',
      description:
        'Turn a memory into one or more snapshots (source_id the memory id), linked automatically to related ones; the memory keeps the first snapshot id in promoted_to. ' +
        'Promoting the same memory again creates nothing and returns the same snapshots. Returns them as ids, names and one-liners; open_snapshot reads one in full.',
      inputSchema: {
        id: z.string().min(1).describe('A memory id (mem_…) from remember or recall'),
        auto_link: AutoLink,
      },
      // Idempotent: a second call answers the snapshots of the first and writes nothing.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, auto_link }, extra) =>
      run(async () => {
        const { memory, snapshots, edges } = await client.memories.promote(
          id,
          auto_link === undefined ? {} : { auto_link },
          { signal: extra.signal },
        );
        return {
          memory_id: memory.id,
          promoted_to: memory.promoted_to,
          ...boundedSummaries(snapshots),
          edges_made: edges.length,
        };
      }),
  );
};
