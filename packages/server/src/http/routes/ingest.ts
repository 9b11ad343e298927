import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ingest } from '../../domain/ingest/index.js';
import { sendInTurns } from '../answer-in-turns.js';
import { queueJob, wantsAsync } from '../jobs.js';
import { EdgeSchema } from '../schemas/edge.js';
import { IngestBody, IngestEnvelope } from '../schemas/ingest.js';
import { JobAcceptedEnvelope } from '../schemas/job.js';
import { MemorySchema } from '../schemas/memory.js';
import { created, responses } from '../schemas/responses.js';
import { SnapshotSchema } from '../schemas/snapshot.js';

/** POST /v1/ingest (design §13.3): text into snapshots, and optionally memories, in one transaction. */
export const ingestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/ingest',
    {
      schema: {
        tags: ['knowledge'],
        operationId: 'ingestText',
        summary: 'Ingest text: snapshots (and with extract_memories, memories), linked automatically',
        description: 'With `Prefer: respond-async`, runs as a job: 202 and GET /v1/jobs/:id.',
        body: IngestBody,
        response: responses({ 201: created(IngestEnvelope), 202: JobAcceptedEnvelope }, 400, 404, 409, 413, 415, 502),
      },
    },
    async (request, reply) => {
      if (wantsAsync(request)) return queueJob(app, request, reply, 'ingest', request.body);
      const result = await ingest(app.domain, request.principal, request.body);
      // An ingestion is no resource of its own: Location names the brain's snapshots it wrote into.
      const brainId = request.body.brain_id ?? request.principal.defaultBrainId;
      reply.code(201).header('location', `${app.prefix}/snapshots?brain_id=${brainId}`);
      return sendInTurns(reply, result.data, [
        { key: 'snapshots', items: SnapshotSchema },
        { key: 'memories', items: MemorySchema },
        { key: 'edges', items: EdgeSchema },
      ]);
    },
  );
};
