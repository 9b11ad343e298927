import { z } from 'zod';
import { run } from '../answer.js';
import { nextCursor, offsetFrom, rankedFetch, RANKED_WINDOW } from '../ranked-pages.js';
import { firstLine } from '../summaries.js';
import { BrainId, Cursor, MemoryType, PageSize } from '../vocabulary.js';
import type { RegisterTool } from './context.js';

export const registerRecall: RegisterTool = ({ server, client }) => {
  server.registerTool(
    'recall',
    {
      title: 'Recall memories',
      description:
        'Find memories (facts, decisions, preferences… kept with remember) by words, best first. ' +
        'Returns ids, types, speakers, when each happened and its session, the start of each memory, the snapshot it was promoted to (if any), the memory that replaced it (superseded_by, superseded_at: a newer value of the same fact, ranked above it) and its score, with next_cursor when more results exist (the best 100 can be paged). ' +
        'With context, each result also carries the memories just before and after it in its session, to read a hit in its conversation. For beliefs and principles use search_snapshots.',
      inputSchema: {
        query: z.string().min(1).max(500).describe('What to look for'),
        memory_type: MemoryType.optional(),
        speaker: z.string().max(200).optional().describe('Only memories of this speaker'),
        session_id: z.string().min(1).max(200).optional().describe('Only memories of this session'),
        since: z.string().max(64).optional().describe('Only memories that occurred at or after this ISO 8601 time'),
        until: z.string().max(64).optional().describe('Only memories that occurred at or before this ISO 8601 time'),
        current_only: z.boolean().optional().describe('Leave out memories a newer value replaced'),
        as_of: z
          .string()
          .max(64)
          .optional()
          .describe('The brain as it stood at this ISO 8601 time: later memories are left out and replace nothing'),
        context: z
          .number()
          .int()
          .min(0)
          .max(5)
          .optional()
          .describe('Also give each result up to this many memories before and after it in its session (0–5)'),
        brain_id: BrainId('Brain to search'),
        limit: PageSize(10, 50),
        cursor: Cursor,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (
      { query, memory_type, speaker, session_id, since, until, current_only, as_of, context, brain_id, limit, cursor },
      extra,
    ) =>
      run(async () => {
        const offset = offsetFrom(cursor, 'recall');
        const found = await client.memories.search(
          {
            query,
            memory_type,
            speaker,
            session_id,
            since,
            until,
            current_only,
            as_of,
            ...(context ? { context } : {}),
            brain_id,
            limit: rankedFetch(offset, limit),
          },
          { signal: extra.signal },
        );
        const page = found.data.slice(offset, offset + limit);
        return {
          query: found.query,
          count: found.count,
          results: page.map((m) => ({
            id: m.id,
            memory_type: m.memory_type,
            speaker: m.speaker,
            occurred_at: m.occurred_at,
            session_id: m.session_id,
            excerpt: firstLine(m.content),
            tags: m.tags,
            promoted_to: m.promoted_to,
            superseded_by: m.superseded_by,
            superseded_at: m.superseded_at,
            score: Number(m.similarity),
            // Bounded as every list here is: who said what and when, the full memory by open_memory.
            ...(context
              ? {
                  context: (m.context ?? []).map((turn) => ({
                    id: turn.id,
                    speaker: turn.speaker,
                    occurred_at: turn.occurred_at,
                    excerpt: firstLine(turn.content),
                  })),
                }
              : {}),
          })),
          next_cursor: nextCursor(offset, page.length, found.count, RANKED_WINDOW),
        };
      }),
  );
};
