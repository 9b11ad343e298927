import { z } from 'zod';
import { run } from '../answer.js';
import { BrainId, MemoryType, Unit } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerRemember: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'remember',
    {
      title: 'Remember something',
      description:
        'Keep a memory as it was said: a fact, decision, insight, story, framework, preference or event (about the user, a project, a person…). ' +
        'Memories are found again with recall, and one that deserves to shape thinking becomes snapshots with promote_memory. ' +
        'Returns the new memory in full (it is short).',
      inputSchema: {
        content: z.string().min(1).max(10_000).describe('What to remember, 1 to 10,000 characters'),
        memory_type: MemoryType.optional().describe(
          'fact (default), decision, insight, story, framework, preference or event',
        ),
        speaker: z.string().max(200).optional().describe('Who said or holds it'),
        tags: z.array(z.string().min(1).max(64)).max(50).optional().describe('Up to 50 tags'),
        source_emotion: z.string().max(64).optional().describe('The feeling it came with, e.g. "relief"'),
        emotional_valence: z.number().min(-1).max(1).optional().describe('-1 (negative) to 1 (positive)'),
        emotional_intensity: Unit('How strong the feeling was, 0 to 1').optional(),
        occurred_at: z
          .string()
          .max(64)
          .optional()
          .describe('When it happened: ISO 8601 with Z or an offset, e.g. 2024-05-01T14:30:00Z (default: now)'),
        session_id: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('The conversation, meeting or episode it belongs to'),
        brain_id: BrainId('Brain to keep it in'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) => run(async () => ({ memory: await client.memories.create(args, { signal: extra.signal }) })),
  );
};
