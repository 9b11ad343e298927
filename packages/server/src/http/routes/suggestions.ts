import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { suggestLinks } from '../../domain/linking/index.js';
import { IdParamsOf } from '../schemas/common.js';
import { responses } from '../schemas/responses.js';
import { SuggestionListEnvelope, SuggestionQuery } from '../schemas/suggestion.js';

export const suggestionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/snapshots/:id/suggestions',
    {
      schema: {
        tags: ['edges'],
        operationId: 'getSnapshotSuggestions',
        summary: 'Edges the service would make for this snapshot, best first (accept one with POST /v1/edges)',
        params: IdParamsOf('snapshot', 'snap_01JDQ8Z2X4M3N5P7Q9R1S3T5V7'),
        querystring: SuggestionQuery,
        response: responses({ 200: SuggestionListEnvelope }, 400, 404),
      },
    },
    async (request) => {
      return suggestLinks(app.domain, request.principal, request.params.id, request.query);
    },
  );
};
