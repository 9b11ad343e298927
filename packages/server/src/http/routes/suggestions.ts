import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { suggestLinks } from '../../domain/linking/index.js';
import { IdParams, responses } from '../schemas/common.js';
import { SuggestionListEnvelope, SuggestionQuery } from '../schemas/suggestion.js';

export const suggestionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/snapshots/:id/suggestions',
    {
      schema: {
        tags: ['edges'],
        summary: 'Edges the service would make for this snapshot, best first (accept one with POST /v1/edges)',
        params: IdParams,
        querystring: SuggestionQuery,
        response: responses({ 200: SuggestionListEnvelope }),
      },
    },
    async (request) => {
      const data = await suggestLinks(app.domain, request.principal, request.params.id, request.query);
      return { data, count: data.length };
    },
  );
};
