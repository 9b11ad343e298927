import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createBrain, getBrain, listBrains, updateBrain } from '../../domain/brains.js';
import {
  BrainCreateBody,
  BrainEnvelope,
  BrainListEnvelope,
  BrainListQuery,
  BrainUpdateBody,
} from '../schemas/brain.js';
import { IdParams, responses } from '../schemas/common.js';
import { sendCreated } from '../created.js';

const tags = ['brains'];

export const brainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/brains',
    {
      schema: {
        tags,
        summary: "Create a brain in the key's account",
        body: BrainCreateBody,
        response: responses({ 201: BrainEnvelope }),
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
        summary: "List the account's brains, newest first",
        querystring: BrainListQuery,
        response: responses({ 200: BrainListEnvelope }),
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
        summary: 'Get one brain with its snapshot and edge counts',
        params: IdParams,
        response: responses({ 200: BrainEnvelope }),
      },
    },
    async (request) => ({ data: await getBrain(app.domain, request.principal, request.params.id) }),
  );

  app.put(
    '/brains/:id',
    {
      schema: {
        tags,
        summary: 'Rename a brain or turn automatic linking on or off',
        params: IdParams,
        body: BrainUpdateBody,
        response: responses({ 200: BrainEnvelope }),
      },
    },
    async (request) => ({ data: await updateBrain(app.domain, request.principal, request.params.id, request.body) }),
  );
};
