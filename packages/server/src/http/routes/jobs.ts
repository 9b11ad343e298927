import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getJob, listJobs } from '../../domain/jobs/index.js';
import { pageBody } from '../json-text.js';
import { IdParamsOf } from '../schemas/common.js';
import { responses } from '../schemas/responses.js';
import { JobEnvelope, JobListEnvelope, JobListQuery } from '../schemas/job.js';

export const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/jobs',
    {
      schema: {
        tags: ['jobs'],
        operationId: 'listJobs',
        summary: 'The caller’s jobs, newest first, optionally of one status or kind',
        querystring: JobListQuery,
        response: responses({ 200: JobListEnvelope }, 400),
      },
    },
    async (request) => {
      const page = await listJobs(app.domain, request.principal, request.query);
      return pageBody(page, request.query.cursor !== undefined);
    },
  );

  app.get(
    '/jobs/:id',
    {
      schema: {
        tags: ['jobs'],
        operationId: 'getJob',
        summary: 'Get a job: its status, progress, and the result or error once it has finished',
        params: IdParamsOf('job', 'job_01JDQ8Z2X4M3N5P7Q9R1S3T5V7'),
        response: responses({ 200: JobEnvelope }, 400, 404),
      },
    },
    async (request) => ({ data: await getJob(app.domain, request.principal, request.params.id) }),
  );
};
