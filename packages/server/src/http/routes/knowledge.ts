import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageBody } from '../json-text.js';
import {
  checkIngestable,
  checkIngestBody,
  deleteSource,
  getEntry,
  getSource,
  ingestKnowledge,
  listSources,
  searchKnowledge,
  updateEntry,
} from '../../domain/knowledge/index.js';
import { queueJob, wantsAsync } from '../jobs.js';
import { IdParamsOf } from '../schemas/common.js';
import { created, responses } from '../schemas/responses.js';
import { JobAcceptedEnvelope } from '../schemas/job.js';
import { sendInTurns } from '../answer-in-turns.js';
import { EdgeSchema } from '../schemas/edge.js';
import {
  EntryEnvelope,
  EntrySchema,
  EntryUpdateBody,
  KnowledgeIngestBody,
  KnowledgeIngestEnvelope,
  KnowledgeSearchBody,
  KnowledgeSearchEnvelope,
  SourceEnvelope,
  SourceListEnvelope,
  SourceListQuery,
} from '../schemas/knowledge.js';
import { SnapshotDeleted, SnapshotSchema } from '../schemas/snapshot.js';

const tags = ['knowledge'];
const SourceParams = IdParamsOf('knowledge source', 'src_01JDQ8Z2X4M3N5P7Q9R1S3T5V7');
const EntryParams = IdParamsOf('knowledge entry', 'ske_01JDQ8Z2X4M3N5P7Q9R1S3T5V7');

/** Specific knowledge (design §13.2): sources, their entries, and snapshots made from them. */
export const knowledgeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/specific-knowledge/ingest',
    {
      schema: {
        tags,
        operationId: 'ingestKnowledge',
        summary: 'Ingest a source: its knowledge entries, and snapshots made from them, linked automatically',
        description: 'With `Prefer: respond-async`, runs as a job: 202 and GET /v1/jobs/:id.',
        body: KnowledgeIngestBody,
        response: responses(
          { 201: created(KnowledgeIngestEnvelope), 202: JobAcceptedEnvelope },
          400,
          404,
          409,
          413,
          415,
          422,
          502,
        ),
      },
    },
    async (request, reply) => {
      if (wantsAsync(request)) {
        checkIngestBody(request.body);
        return queueJob(app, request, reply, 'knowledge.ingest', request.body, () =>
          checkIngestable(app.domain, request.body),
        );
      }
      const result = await ingestKnowledge(app.domain, request.principal, request.body);
      reply.code(201).header('location', `${app.prefix}/specific-knowledge/sources/${result.data.source_id}`);
      return sendInTurns(reply, result.data, [
        { key: 'entries', items: EntrySchema },
        { key: 'snapshots', items: SnapshotSchema },
        { key: 'edges', items: EdgeSchema },
      ]);
    },
  );

  app.post(
    '/specific-knowledge/search',
    {
      schema: {
        tags,
        operationId: 'searchKnowledge',
        summary: 'Search knowledge entries by text',
        body: KnowledgeSearchBody,
        response: responses({ 200: KnowledgeSearchEnvelope }, 400, 404, 409, 413, 415),
      },
    },
    async (request) =>
      searchKnowledge(app.domain, request.principal, { ...request.body, limit: request.body.limit ?? 10 }),
  );

  app.get(
    '/specific-knowledge/sources',
    {
      schema: {
        tags,
        operationId: 'listKnowledgeSources',
        summary: 'Knowledge sources of a brain, newest first',
        querystring: SourceListQuery,
        response: responses({ 200: SourceListEnvelope }, 400, 404),
      },
    },
    async (request) => {
      const page = await listSources(app.domain, request.principal, request.query);
      return pageBody(page, request.query.cursor !== undefined);
    },
  );

  app.get(
    '/specific-knowledge/sources/:id',
    {
      schema: {
        tags,
        operationId: 'getKnowledgeSource',
        summary: 'One knowledge source with its entries',
        params: SourceParams,
        response: responses({ 200: SourceEnvelope }, 400, 404),
      },
    },
    async (request) => ({ data: await getSource(app.domain, request.principal, request.params.id) }),
  );

  app.delete(
    '/specific-knowledge/sources/:id',
    {
      schema: {
        tags,
        operationId: 'deleteKnowledgeSource',
        summary: 'Delete a knowledge source and its entries (snapshots made from it stay)',
        params: SourceParams,
        response: responses({ 200: SnapshotDeleted }, 400, 404),
      },
    },
    async (request) => {
      await deleteSource(app.domain, request.principal, request.params.id);
      return { data: { success: true } };
    },
  );

  app.get(
    '/specific-knowledge/entries/:id',
    {
      schema: {
        tags,
        operationId: 'getKnowledgeEntry',
        summary: 'One knowledge entry',
        params: EntryParams,
        response: responses({ 200: EntryEnvelope }, 400, 404),
      },
    },
    async (request) => ({ data: await getEntry(app.domain, request.principal, request.params.id) }),
  );

  app.put(
    '/specific-knowledge/entries/:id',
    {
      schema: {
        tags,
        operationId: 'updateKnowledgeEntry',
        summary: "Update an entry's mastery, title, content or domain",
        params: EntryParams,
        body: EntryUpdateBody,
        response: responses({ 200: EntryEnvelope }, 400, 404, 413, 415),
      },
    },
    async (request) => ({ data: await updateEntry(app.domain, request.principal, request.params.id, request.body) }),
  );
};
