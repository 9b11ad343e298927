import { run } from '../answer.js';
import { SnapshotId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerDeleteSnapshot: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'delete_snapshot',
    {
      title: 'Delete a snapshot',
      description:
        'Permanently delete a snapshot and every edge attached to it. Irreversible: confirm with the user first, and open_snapshot to be sure of the id.',
      inputSchema: { id: SnapshotId },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id }, extra) =>
      run(async () => {
        await client.snapshots.delete(id, { signal: extra.signal });
        return { deleted: { id } };
      }),
  );
};
