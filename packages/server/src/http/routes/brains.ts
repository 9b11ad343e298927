import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createBrain, getBrain, listBrains, updateBrain } from '../../domain/brains/index.js';
import {
  BrainCreateBody,
  BrainEnvelope,
  BrainListEnvelope,
  BrainListQuery,
  BrainUpdateBody,
} from '../schemas/brain.js';
import { IdParamsOf } from '../schemas/common.js';
import { created, responses } from '../schemas/responses.js';
import { sendCreated } from '../created.js';

const tags = ['brains'];
const IdParams = IdParamsOf('brain', 'brain_01JDQ8YF3K2M4N6P8Q0R2S4T6V');

export const brainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/brains',
    {
      schema: {
        tags,
        operationId: 'createBrain',
        summary: "Create a brain in the key's account",
        body: BrainCreateBody,
        response: responses({ 201: created(BrainEnvelope) }, 400, 413, 415),
      },
    },
    async (request, reply) => {
      const brain = await createBrain(app.domain, request.principal.accountId, request.body);
      return sendCreated(reply, `${app.prefix}/brains`, brain);
    },
  );

  app.get(
    '/brains',
    {
      schema: {
        tags,
        operationId: 'listBrains',
        summary: "List the account's brains, newest first",
        querystring: BrainListQuery,
        response: responses({ 200: BrainListEnvelope }, 400),
      },
    },
    async (request) => {
      const page = await listBrains(app.domain, request.principal, request.query);
      return { data: page.rows, count: page.total };
    },
  );

  app.get(
    '/brains/:id',
    {
      schema: {
        tags,
        operationId: 'getBrain',
        summary: 'Get one brain with its snapshot and edge counts',
        params: IdParams,
        response: responses({ 200: BrainEnvelope }, 400, 404),
      },
    },
    async (request) => ({ data: await getBrain(app.domain, request.principal, request.params.id) }),
  );

  app.put(
    '/brains/:id',
    {
      schema: {
        tags,
        operationId: 'updateBrain',
        summary: 'Rename a brain or turn automatic linking on or off',
        description: 'Turning automatic linking on queues the brain’s existing snapshots too.',
        params: IdParams,
        body: BrainUpdateBody,
        response: responses({ 200: BrainEnvelope }, 400, 404, 413, 415),
      },
    },
    async (request) => ({ data: await updateBrain(app.domain, request.principal, request.params.id, request.body) }),
  );
};
