import { z } from 'zod';
import type { CrystallizeResult } from '@snapgraph/client';
import { run } from '../answer.js';
import { followJob } from '../follow-job.js';
import { boundedSummaries, oneLiner } from '../summaries.js';
import { AutoLink, BrainId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerCrystallizeText: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'crystallize_text',
    {
      title: 'Crystallize text into snapshots',
      description:
        'Turn free text (notes, a transcript, an article, 50 to 100,000 characters) into snapshots: the service extracts the insights, merges near-duplicates, skips what the brain already holds, and links the new snapshots. ' +
        'Returns the run id and the new snapshots as ids, names and one-liners (open_snapshot reads one in full). ' +
        'With review: true nothing is stored yet: the proposals come back as captures to accept_capture or reject_capture. Long texts take a while; progress is reported.',
      inputSchema: {
        text: z.string().min(50).max(100_000).describe('The text to crystallize, 50 to 100,000 characters'),
        source_type: z
          .string()
          .regex(/^[a-z0-9_-]{1,64}$/)
          .optional()
          .describe('How the text was captured, e.g. "chat", "meeting", "notes" (default "api")'),
        review: z
          .boolean()
          .optional()
          .describe('Propose captures to review instead of storing snapshots (default false)'),
        brain_id: BrainId('Brain to store the snapshots in'),
        auto_link: AutoLink,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ text, source_type, review, brain_id, auto_link }, extra) =>
      run(async () => {
        const accepted = await client.crystallize.text(
          { text, source_type, review, brain_id, auto_link },
          { async: true, signal: extra.signal },
        );
        const result = await followJob<CrystallizeResult>(client, accepted.job_id, extra);
        const captures = result.data.captures ?? [];
        return {
          run_id: result.run_id,
          count: result.data.count,
          ...boundedSummaries(result.data.snapshots),
          edges_made: result.data.edges.length,
          ...(review
            ? {
                captures: captures.map((c) => ({
                  id: c.id,
                  name: c.snapshot.name,
                  type: c.snapshot.type,
                  one_liner: oneLiner(c.snapshot),
                })),
              }
            : {}),
          model: result.usage.model,
        };
      }),
  );
};
