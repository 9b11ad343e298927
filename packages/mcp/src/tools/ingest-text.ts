import { z } from 'zod';
import type { IngestResult } from '@snapgraph/client';
import { run } from '../answer.js';
import { followJob } from '../follow-job.js';
import { boundedSummaries, firstLine, SUMMARY_LIMIT } from '../summaries.js';
import { AutoLink, BrainId } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerIngestText: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'ingest_text',
    {
      title: 'Ingest text',
      description:
        'Store a text (a document, an article, notes) as snapshots linked to each other and to the brain, and with extract_memories: true also keep the memories it holds (facts, decisions, preferences…). ' +
        'A url source_type only records where the text came from: nothing is fetched. For a book or course whose concepts and techniques you want as knowledge entries, use ingest_knowledge. ' +
        'Returns the ingestion id (the snapshots carry it as source_id), the new snapshots as summaries and the memories as ids and excerpts. Long texts take a while; progress is reported.',
      inputSchema: {
        content: z.string().min(20).max(1_000_000).describe('The text, at least 20 characters'),
        title: z.string().max(500).optional().describe('A title; the snapshots name it as their source'),
        source_type: z
          .enum(['manual', 'document', 'article', 'url'])
          .optional()
          .describe('manual (default), document, article or url'),
        tags: z.array(z.string().min(1).max(64)).max(50).optional().describe('Tags for its snapshots'),
        extract_memories: z.boolean().optional().describe('Also keep the memories the text holds (default false)'),
        brain_id: BrainId('Brain to store it in'),
        auto_link: AutoLink,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      run(async () => {
        const accepted = await client.ingest(args, { async: true, signal: extra.signal });
        const { data } = await followJob<IngestResult>(client, accepted.job_id, extra);
        return {
          ingestion_id: data.ingestion_id,
          title: data.title,
          source_type: data.source_type,
          ...boundedSummaries(data.snapshots),
          memories_count: data.memories.length,
          memories: data.memories
            .slice(0, SUMMARY_LIMIT)
            .map((m) => ({ id: m.id, memory_type: m.memory_type, excerpt: firstLine(m.content) })),
          ...(data.memories.length > SUMMARY_LIMIT
            ? { more_memory_ids: data.memories.slice(SUMMARY_LIMIT).map((m) => m.id) }
            : {}),
          edges_made: data.edges.length,
        };
      }),
  );
};
