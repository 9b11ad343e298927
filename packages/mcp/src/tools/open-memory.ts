import { z } from 'zod';
import { run } from '../answer.js';
import type { RegisterTool } from './context.js';

/** recall answers excerpts; design §19 wants a tool that opens the full object. */
export const registerOpenMemory: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'open_memory',
    {
      title: 'Open a memory',
      description:
        'Read one memory in full: its whole content, type, speaker, tags, emotion fields and the snapshot it was promoted to. ' +
        'Use after recall or ingest_text gave you an id.',
      inputSchema: { id: z.string().min(1).describe('A memory id (mem_…)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }, extra) => run(async () => ({ memory: await client.memories.get(id, { signal: extra.signal }) })),
  );
};
