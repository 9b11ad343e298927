import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageBody } from '../json-text.js';
import {
  deleteMemory,
  getMemory,
  listMemories,
  memoryHistory,
  promoteMemory,
  rememberMemory,
  searchMemories,
  updateMemory,
} from '../../domain/memories/index.js';
import { sendCreated } from '../created.js';
import { IdParamsOf } from '../schemas/common.js';
import { created, noBodyIsEmpty, optionalBody, responses } from '../schemas/responses.js';
import {
  MemoryCreateBody,
  MemoryEnvelope,
  MemoryHistoryEnvelope,
  MemoryListEnvelope,
  MemoryListQuery,
  MemoryPromoteBody,
  MemoryPromotedEnvelope,
  MemorySearchBody,
  MemorySearchEnvelope,
  MemoryUpdateBody,
} from '../schemas/memory.js';
import { SnapshotDeleted } from '../schemas/snapshot.js';

const tags = ['memories'];
const IdParams = IdParamsOf('memory', 'mem_01JDQ8Z2X4M3N5P7Q9R1S3T5V7');

/** Memories (design §12.3): kept as they happen, searched, promoted into snapshots when they matter. */
export const memoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const createSchema = {
    tags,
    body: MemoryCreateBody,
    response: responses({ 201: created(MemoryEnvelope) }, 400, 404, 409, 413, 415),
  };
  for (const [path, operationId, summary] of [
    [
      '/memories',
      'createMemory',
      'Remember something: a fact, decision, insight, story, framework, preference or event',
    ],
    ['/memories/remember', 'rememberMemory', 'Alias of POST /memories'],
  ] as const) {
    app.post(path, { schema: { ...createSchema, operationId, summary } }, async (request, reply) => {
      const memory = await rememberMemory(app.domain, request.principal, request.body);
      return sendCreated(reply, `${app.prefix}/memories`, memory);
    });
  }

  app.get(
    '/memories',
    {
      schema: {
        tags,
        operationId: 'listMemories',
        summary: 'Memories of a brain, newest first, with filters',
        querystring: MemoryListQuery,
        response: responses({ 200: MemoryListEnvelope }, 400, 404),
      },
    },
    async (request) => {
      const page = await listMemories(app.domain, request.principal, request.query);
      return pageBody(page, request.query.cursor !== undefined);
    },
  );

  app.post(
    '/memories/search',
    {
      schema: {
        tags,
        operationId: 'searchMemories',
        summary: 'Search memories by text, best first',
        body: MemorySearchBody,
        response: responses({ 200: MemorySearchEnvelope }, 400, 404, 409, 413, 415),
      },
    },
    async (request) =>
      searchMemories(app.domain, request.principal, { ...request.body, limit: request.body.limit ?? 10 }),
  );

  app.get(
    '/memories/:id',
    {
      schema: {
        tags,
        operationId: 'getMemory',
        summary: 'One memory',
        params: IdParams,
        response: responses({ 200: MemoryEnvelope }, 400, 404),
      },
    },
    async (request) => ({ data: await getMemory(app.domain, request.principal, request.params.id) }),
  );

  app.get(
    '/memories/:id/history',
    {
      schema: {
        tags,
        operationId: 'memoryHistory',
        summary: 'The versions of the fact a memory belongs to, oldest first',
        params: IdParams,
        response: responses({ 200: MemoryHistoryEnvelope }, 400, 404),
      },
    },
    async (request) => ({ data: await memoryHistory(app.domain, request.principal, request.params.id) }),
  );

  app.put(
    '/memories/:id',
    {
      schema: {
        tags,
        operationId: 'updateMemory',
        summary: 'Update a memory (read-only fields may be sent back unchanged)',
        params: IdParams,
        body: MemoryUpdateBody,
        response: responses({ 200: MemoryEnvelope }, 400, 404, 413, 415),
      },
    },
    async (request) => ({
      data: await updateMemory(app.domain, request.principal, request.params.id, request.body),
    }),
  );

  app.delete(
    '/memories/:id',
    {
      schema: {
        tags,
        operationId: 'deleteMemory',
        summary: 'Delete a memory (snapshots promoted from it stay)',
        params: IdParams,
        response: responses({ 200: SnapshotDeleted }, 400, 404),
      },
    },
    async (request) => {
      await deleteMemory(app.domain, request.principal, request.params.id);
      return { data: { success: true } };
    },
  );

  // `/promote` is the name the client and the MCP server use (design §12.4): the same operation.
  for (const [path, operationId] of [
    ['/memories/:id/crystallize', 'promoteMemory'],
    ['/memories/:id/promote', 'promoteMemoryAlias'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags,
          operationId,
          summary: 'Promote a memory into snapshots, linked automatically; again: 200 with the same snapshots',
          params: IdParams,
          body: optionalBody(MemoryPromoteBody),
          response: responses(
            { 200: MemoryPromotedEnvelope, 201: created(MemoryPromotedEnvelope) },
            400,
            404,
            409,
            413,
            415,
            502,
          ),
        },
        preValidation: noBodyIsEmpty,
      },
      async (request, reply) => {
        const result = await promoteMemory(app.domain, request.principal, request.params.id, request.body);
        if (!result.created) return reply.code(200).send({ data: result.data });
        // Location: the first snapshot made, the memory's promoted_to (design §3.3).
        const first = result.data.snapshots[0];
        if (first) reply.header('location', `${app.prefix}/snapshots/${first.id}`);
        return reply.code(201).send({ data: result.data });
      },
    );
  }
};
