import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createEdge, deleteEdge, getEdge, listEdges, updateEdge } from '../../domain/edges.js';
import { listBodyBytes, sendJsonText } from '../json-text.js';
import { IdParams, responses } from '../schemas/common.js';
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

export const edgeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/edges',
    {
      schema: {
        tags,
        summary: 'Create an edge between two snapshots of one brain',
        body: EdgeCreateBody,
        response: responses({ 201: EdgeEnvelope }),
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
        summary: 'List edges of a snapshot (incoming and outgoing) or of a brain, newest first',
        querystring: EdgeListQuery,
        response: responses({ 200: EdgeListEnvelope }),
      },
    },
    async (request, reply) => {
      const page = await listEdges(app.domain, request.principal, request.query);
      sendJsonText(reply, listBodyBytes(page, 'total', request.query.cursor !== undefined));
    },
  );

  app.get(
    '/edges/:id',
    { schema: { tags, summary: 'Get one edge', params: IdParams, response: responses({ 200: EdgeEnvelope }) } },
    async (request) => ({ data: await getEdge(app.domain, request.principal, request.params.id) }),
  );

  app.put(
    '/edges/:id',
    {
      schema: {
        tags,
        summary: 'Update an edge: edge_type, strength or label',
        params: IdParams,
        body: EdgeUpdateBody,
        response: responses({ 200: EdgeEnvelope }),
      },
    },
    async (request) => ({ data: await updateEdge(app.domain, request.principal, request.params.id, request.body) }),
  );

  app.delete(
    '/edges/:id',
    { schema: { tags, summary: 'Delete an edge', params: IdParams, response: responses({ 200: EdgeDeleted }) } },
    async (request) => {
      await deleteEdge(app.domain, request.principal, request.params.id);
      return { message: 'edge deleted' };
    },
  );
};
