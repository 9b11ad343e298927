import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getJob } from '../../domain/jobs/index.js';
import { IdParams, responses } from '../schemas/common.js';
import { JobEnvelope } from '../schemas/job.js';

export const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/jobs/:id',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Get a job: its status, progress, and the result or error once it has finished',
        params: IdParams,
        response: responses({ 200: JobEnvelope }),
      },
    },
    async (request) => ({ data: await getJob(app.domain, request.principal, request.params.id) }),
  );
};
