import { run } from '../answer.js';
import { SnapshotId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerOpenSnapshot: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'open_snapshot',
    {
      title: 'Open a snapshot',
      description:
        'Read one snapshot in full: its core statement, type, confidence, significance, tags, and every narrative field (story, method, steps, challenge, proof, …). ' +
        'Use after search_snapshots, list_neighbours or suggest_links gave you an id.',
      inputSchema: { id: SnapshotId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }, extra) => run(async () => ({ snapshot: await client.snapshots.get(id, { signal: extra.signal }) })),
  );
};
