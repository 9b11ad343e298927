import { z } from 'zod';
import type { KnowledgeIngestResult } from '@snapgraph/client';
import { run } from '../answer.js';
import { followJob } from '../follow-job.js';
import { boundedSummaries, SUMMARY_LIMIT } from '../summaries.js';
import { AutoLink, BrainId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerIngestKnowledge: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'ingest_knowledge',
    {
      title: 'Ingest a knowledge source',
      description:
        'Store what a source teaches (a book, course, article, video, podcast, document or manual) as knowledge entries (concepts, frameworks, techniques, quotes, definitions…), and snapshots made from them unless create_snapshots is false. ' +
        'Give the source text in content: the service fetches nothing from the network (document and manual require it; the others need it unless the service has an LLM). ' +
        'Returns the source id, the entries as ids, types and titles, and the new snapshots as summaries; open_knowledge reads an entry or the source in full.',
      inputSchema: {
        source_type: z
          .enum(['youtube', 'book', 'document', 'article', 'course', 'podcast', 'manual'])
          .describe('youtube, book, document, article, course, podcast or manual'),
        title: z.string().min(1).max(500).describe("The source's title, up to 500 characters"),
        content: z
          .string()
          .max(1_000_000)
          .optional()
          .describe('The text of the source (a transcript, notes, the chapter)'),
        author: z.string().max(500).optional().describe('Who wrote or made it'),
        url: z.string().max(2_000).optional().describe('Where it lives (recorded, not fetched)'),
        domain: z.string().max(200).optional().describe('Field it belongs to, e.g. "learning"'),
        tags: z.array(z.string().min(1).max(64)).max(50).optional().describe('Tags for its snapshots'),
        create_snapshots: z.boolean().optional().describe('Also make snapshots from the entries (default true)'),
        brain_id: BrainId('Brain to store it in'),
        auto_link: AutoLink,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        const accepted = await client.knowledge.ingest(args, { async: true, signal: extra.signal });
        const { data } = await followJob<KnowledgeIngestResult>(client, accepted.job_id, extra);
        return {
          source_id: data.source_id,
          title: data.title,
          entries_count: data.entries_count,
          entries: data.entries
            .slice(0, SUMMARY_LIMIT)
            .map((e) => ({ id: e.id, entry_type: e.entry_type, title: e.title })),
          ...boundedSummaries(data.snapshots),
          edges_made: data.edges.length,
        };
      }),
  );
};
