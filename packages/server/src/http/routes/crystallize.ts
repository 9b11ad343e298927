import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageBody } from '../json-text.js';
import { acceptCapture, crystallize, getRun, listCaptures, rejectCapture } from '../../domain/crystallize/index.js';
import { sendCreated } from '../created.js';
import { queueJob, wantsAsync } from '../jobs.js';
import { IdParamsOf } from '../schemas/common.js';
import { created, noBodyIsEmpty, optionalBody, responses } from '../schemas/responses.js';
import {
  CaptureDecisionBody,
  CaptureListEnvelope,
  CaptureListQuery,
  CrystallizeBody,
  CrystallizeEnvelope,
  RunEnvelope,
  RunParams,
} from '../schemas/crystallize.js';
import { JobAcceptedEnvelope } from '../schemas/job.js';
import { SnapshotDeleted, SnapshotEnvelope } from '../schemas/snapshot.js';

const tags = ['crystallize'];
const CaptureParams = IdParamsOf('capture', 'cap_01JDQ8Z2X4M3N5P7Q9R1S3T5V7');

/** Text into snapshots (design §11): runs, and the captures of review runs. */
export const crystallizeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/crystallize',
    {
      schema: {
        tags,
        operationId: 'crystallizeText',
        summary: 'Turn free text into snapshots (or captures to review), linked automatically',
        description: 'With `Prefer: respond-async`, runs as a job: 202 and GET /v1/jobs/:id.',
        body: CrystallizeBody,
        response: responses(
          { 201: created(CrystallizeEnvelope), 202: JobAcceptedEnvelope },
          400,
          404,
          409,
          413,
          415,
          502,
        ),
      },
    },
    async (request, reply) => {
      if (wantsAsync(request)) return queueJob(app, request, reply, 'crystallize', request.body);
      const result = await crystallize(app.domain, request.principal, request.body);
      return reply.code(201).header('location', `${app.prefix}/crystallize/${result.run_id}`).send(result);
    },
  );

  app.get(
    '/crystallize/:run_id',
    {
      schema: {
        tags,
        operationId: 'getCrystallizeRun',
        summary: 'A crystallize run: what it made and what it cost',
        params: RunParams,
        response: responses({ 200: RunEnvelope }, 400, 404),
      },
    },
    async (request) => ({
      data: await getRun(app.domain, request.principal, request.params.run_id),
    }),
  );

  app.get(
    '/captures',
    {
      schema: {
        tags,
        operationId: 'listCaptures',
        summary: 'Pending captures of a brain, newest first',
        querystring: CaptureListQuery,
        response: responses({ 200: CaptureListEnvelope }, 400, 404),
      },
    },
    async (request) => {
      const page = await listCaptures(app.domain, request.principal, request.query);
      return pageBody(page, request.query.cursor !== undefined);
    },
  );

  app.post(
    '/captures/:id/accept',
    {
      schema: {
        tags,
        operationId: 'acceptCapture',
        summary: 'Accept a capture: it becomes a snapshot, linked automatically',
        params: CaptureParams,
        body: optionalBody(CaptureDecisionBody),
        response: responses({ 201: created(SnapshotEnvelope) }, 400, 404, 409, 413, 415),
      },
      preValidation: noBodyIsEmpty,
    },
    async (request, reply) => {
      const snapshot = await acceptCapture(app.domain, request.principal, request.params.id);
      return sendCreated(reply, `${app.prefix}/snapshots`, snapshot);
    },
  );

  app.post(
    '/captures/:id/reject',
    {
      schema: {
        tags,
        operationId: 'rejectCapture',
        summary: 'Reject a capture: it leaves the pending list',
        params: CaptureParams,
        body: optionalBody(CaptureDecisionBody),
        response: responses({ 200: SnapshotDeleted }, 400, 404, 409, 413, 415),
      },
      preValidation: noBodyIsEmpty,
    },
    async (request) => {
      await rejectCapture(app.domain, request.principal, request.params.id);
      return { data: { success: true } };
    },
  );
};
