import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  deleteMemory,
  getMemory,
  listMemories,
  promoteMemory,
  rememberMemory,
  searchMemories,
  updateMemory,
} from '../../domain/memories/index.js';
import { sendCreated } from '../created.js';
import { IdParams, responses } from '../schemas/common.js';
import {
  MemoryCreateBody,
  MemoryEnvelope,
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

/** Memories (DESIGN 4.5): kept as they happen, searched, promoted into snapshots when they matter. */
export const memoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const createSchema = {
    tags,
    body: MemoryCreateBody,
    response: responses({ 201: MemoryEnvelope }),
  };
  for (const [path, summary] of [
    ['/memories', 'Remember something: a fact, decision, insight, story, framework, preference or event'],
    ['/memories/remember', 'Alias of POST /memories'],
  ] as const) {
    app.post(path, { schema: { ...createSchema, summary } }, async (request, reply) => {
      const memory = await rememberMemory(app.domain, request.principal, request.body);
      return sendCreated(reply, `${app.prefix}/memories`, memory);
    });
  }

  app.get(
    '/memories',
    {
      schema: {
        tags,
        summary: 'Memories of a brain, newest first, with filters',
        querystring: MemoryListQuery,
        response: responses({ 200: MemoryListEnvelope }),
      },
    },
    async (request) => {
      const page = await listMemories(app.domain, request.principal, request.query);
      return {
        data: page.rows,
        count: page.total,
        ...(request.query.cursor !== undefined ? { next_cursor: page.nextCursor } : {}),
      };
    },
  );

  app.post(
    '/memories/search',
    {
      schema: {
        tags,
        summary: 'Search memories by text, best first',
        body: MemorySearchBody,
        response: responses({ 200: MemorySearchEnvelope }),
      },
    },
    async (request) =>
      searchMemories(app.domain, request.principal, { ...request.body, limit: request.body.limit ?? 10 }),
  );

  app.get(
    '/memories/:id',
    { schema: { tags, summary: 'One memory', params: IdParams, response: responses({ 200: MemoryEnvelope }) } },
    async (request) => ({ data: await getMemory(app.domain, request.principal, request.params.id) }),
  );

  app.put(
    '/memories/:id',
    {
      schema: {
        tags,
        summary: 'Update a memory (read-only fields may be sent back unchanged)',
        params: IdParams,
        body: MemoryUpdateBody,
        response: responses({ 200: MemoryEnvelope }),
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
        summary: 'Delete a memory (snapshots promoted from it stay)',
        params: IdParams,
        response: responses({ 200: SnapshotDeleted }),
      },
    },
    async (request) => {
      await deleteMemory(app.domain, request.principal, request.params.id);
      return { data: { success: true } };
    },
  );

  app.post(
    '/memories/:id/crystallize',
    {
      schema: {
        tags,
        summary: 'Promote a memory into snapshots, linked automatically; again: 200 with the same snapshots',
        params: IdParams,
        body: MemoryPromoteBody,
        response: responses({ 200: MemoryPromotedEnvelope, 201: MemoryPromotedEnvelope }),
      },
      // The body is optional: no body is the same as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const result = await promoteMemory(app.domain, request.principal, request.params.id, request.body);
      return reply.code(result.created ? 201 : 200).send({ data: result.data });
    },
  );
};
