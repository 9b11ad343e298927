import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ingest } from '../../domain/ingest/index.js';
import { responses } from '../schemas/common.js';
import { IngestBody, IngestEnvelope } from '../schemas/ingest.js';

/** POST /v1/ingest (DESIGN 4.6): text into snapshots, and optionally memories, in one transaction. */
export const ingestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/ingest',
    {
      schema: {
        tags: ['knowledge'],
        summary: 'Ingest text: snapshots (and with extract_memories, memories), linked automatically',
        body: IngestBody,
        response: responses({ 201: IngestEnvelope }),
      },
    },
    async (request, reply) => reply.code(201).send(await ingest(app.domain, request.principal, request.body)),
  );
};
