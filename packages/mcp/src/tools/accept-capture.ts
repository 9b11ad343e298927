import { z } from 'zod';
import { run } from '../answer.js';
import { summarize } from '../summaries.js';
import type { RegisterTool } from './context.js';

export const registerAcceptCapture: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'accept_capture',
    {
      title: 'Accept a capture',
      description:
        'Store a capture (a snapshot crystallize_text proposed for review) as a real snapshot, linked automatically to related ones. Returns the new snapshot id, name and one-liner. ' +
        'A capture can be decided once; a second accept answers NOT_FOUND.',
      inputSchema: { id: z.string().min(1).describe('A capture id (cap_…) from crystallize_text or review_captures') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ id }, extra) =>
      run(async () => ({ created: summarize(await client.captures.accept(id, { signal: extra.signal })) })),
  );
};
