import { z } from 'zod';
import { run } from '../answer.js';
import { SnapshotId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';
import { given, snapshotFields } from './snapshot-fields.js';

export const registerUpdateSnapshot: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'update_snapshot',
    {
      title: 'Update a snapshot',
      description:
        'Change some fields of a snapshot: only the fields given change; null clears an optional text field; tags, when given, replace the old list. ' +
        'Give at least one field besides id. Returns the id, name and new updated_at.',
      inputSchema: {
        id: SnapshotId,
        name: z.string().min(1).max(200).optional().describe('New display name'),
        core: z.string().min(1).max(10_000).optional().describe('New core statement'),
        ...snapshotFields,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id, ...fields }, extra) =>
      run(async () => {
        const snapshot = await client.snapshots.update(id, given(fields), { signal: extra.signal });
        return { updated: { id: snapshot.id, name: snapshot.name, updated_at: snapshot.updated_at } };
      }),
  );
};
