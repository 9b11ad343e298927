import { z } from 'zod';
import { run } from '../answer.js';
import type { RegisterTool } from './context.js';

export const registerRejectCapture: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'reject_capture',
    {
      title: 'Reject a capture',
      description:
        'Discard a capture (a snapshot crystallize_text proposed for review): nothing is stored and it leaves the review list for good. Check its content with the user first.',
      inputSchema: { id: z.string().min(1).describe('A capture id (cap_…) from crystallize_text or review_captures') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ id }, extra) =>
      run(async () => {
        await client.captures.reject(id, { signal: extra.signal });
        return { rejected: { id } };
      }),
  );
};
