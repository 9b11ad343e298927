import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createEdge, deleteEdge, getEdge, listEdges, updateEdge } from '../../domain/edges/index.js';
import { listBodyBytes, sendJsonText } from '../json-text.js';
import { IdParamsOf } from '../schemas/common.js';
import { created, responses } from '../schemas/responses.js';
import {
  EdgeCreateBody,
  EdgeDeleted,
  EdgeEnvelope,
  EdgeListEnvelope,
  EdgeListQuery,
  EdgeUpdateBody,
} from '../schemas/edge.js';
import { sendCreated } from '../created.js';

const tags = ['edges'];
const IdParams = IdParamsOf('edge', 'edge_01JDQ90A1B3C5D7E9F1G3H5J7K');

export const edgeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/edges',
    {
      schema: {
        tags,
        operationId: 'createEdge',
        summary: 'Create an edge between two snapshots of one brain',
        body: EdgeCreateBody,
        response: responses({ 201: created(EdgeEnvelope) }, 400, 404, 409, 413, 415, 422),
      },
    },
    async (request, reply) => {
      const edge = await createEdge(app.domain, request.principal, request.body);
      return sendCreated(reply, `${app.prefix}/edges`, edge);
    },
  );

  app.get(
    '/edges',
    {
      schema: {
        tags,
        operationId: 'listEdges',
        summary: 'List edges of a snapshot (incoming and outgoing) or of a brain, newest first',
        description:
          'One of `snapshot_id` and `brain_id` is required; `snapshot_id` wins when both are given. `total` is the number of all matches.',
        querystring: EdgeListQuery,
        response: responses({ 200: EdgeListEnvelope }, 400, 404),
      },
    },
    async (request, reply) => {
      const page = await listEdges(app.domain, request.principal, request.query);
      sendJsonText(reply, listBodyBytes(page, 'total', request.query.cursor !== undefined));
    },
  );

  app.get(
    '/edges/:id',
    {
      schema: {
        tags,
        operationId: 'getEdge',
        summary: 'Get one edge',
        params: IdParams,
        response: responses({ 200: EdgeEnvelope }, 400, 404),
      },
    },
    async (request) => ({ data: await getEdge(app.domain, request.principal, request.params.id) }),
  );

  app.put(
    '/edges/:id',
    {
      schema: {
        tags,
        operationId: 'updateEdge',
        summary: 'Update an edge: edge_type, strength or label',
        description:
          'An automatic edge that is edited becomes manual. A change that would duplicate another edge is a 409.',
        params: IdParams,
        body: EdgeUpdateBody,
        response: responses({ 200: EdgeEnvelope }, 400, 404, 409, 413, 415),
      },
    },
    async (request) => ({ data: await updateEdge(app.domain, request.principal, request.params.id, request.body) }),
  );

  app.delete(
    '/edges/:id',
    {
      schema: {
        tags,
        operationId: 'deleteEdge',
        summary: 'Delete an edge',
        params: IdParams,
        response: responses({ 200: EdgeDeleted }, 400, 404),
      },
    },
    async (request) => {
      await deleteEdge(app.domain, request.principal, request.params.id);
      return { message: 'edge deleted' };
    },
  );
};
