import { z } from 'zod';
import { run } from '../answer.js';
import { oneLiner } from '../summaries.js';
import type { RegisterTool } from './context.js';
import { given, snapshotFields } from './snapshot-fields.js';

export const registerCreateSnapshot: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'create_snapshot',
    {
      title: 'Create a snapshot',
      description:
        'Store a new snapshot: one belief, insight, model, rule, conviction or principle, with a short name and its core statement. ' +
        'Search first (search_snapshots) to avoid a duplicate. Returns the new id; connect it to others with link_snapshots.',
      inputSchema: {
        name: z.string().min(1).max(200).describe('Short display name, 1 to 200 characters'),
        core: z.string().min(1).max(10_000).describe('The core statement itself, 1 to 10,000 characters'),
        ...snapshotFields,
        brain_id: z.string().min(1).optional().describe("Brain to store it in (brain_…); default: the key's brain"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        const snapshot = await client.snapshots.create(given(args) as typeof args, { signal: extra.signal });
        return {
          created: {
            id: snapshot.id,
            brain_id: snapshot.brain_id,
            name: snapshot.name,
            type: snapshot.type,
            one_liner: oneLiner(snapshot),
          },
        };
      }),
  );
};
