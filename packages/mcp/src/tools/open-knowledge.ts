import { z } from 'zod';
import { run } from '../answer.js';
import type { RegisterTool } from './context.js';

export const registerOpenKnowledge: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'open_knowledge',
    {
      title: 'Open a knowledge entry or source',
      description:
        'Read a knowledge entry (ske_…) in full, or a source (src_…) with its details and the list of its entries (ids, types, titles). ' +
        'Use after ingest_knowledge or search_knowledge gave you an id.',
      inputSchema: {
        id: z
          .string()
          .regex(/^(ske|src)_/, 'must be a knowledge entry id (ske_…) or a source id (src_…)')
          .describe('A knowledge entry id (ske_…) or source id (src_…)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }, extra) =>
      run(async () => {
        if (id.startsWith('ske_')) return { entry: await client.knowledge.getEntry(id, { signal: extra.signal }) };
        const { entries, ...source } = await client.knowledge.getSource(id, { signal: extra.signal });
        return {
          source: {
            ...source,
            entries: entries.map((e) => ({ id: e.id, entry_type: e.entry_type, title: e.title })),
          },
        };
      }),
  );
};
