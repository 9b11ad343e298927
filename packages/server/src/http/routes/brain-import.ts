import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { rm } from 'node:fs/promises';
import { resolveBrainId } from '../../domain/brains/index.js';
import { enqueueJob, getJob } from '../../domain/jobs/index.js';
import { AppError, validationError } from '../../errors.js';
import { newId } from '../../ids.js';
import { IMPORT_MEDIA_TYPES, mediaTypeOf } from '../import/import-files.js';
import type { ImportJobInput } from '../../domain/transfer/import-job.js';
import { registerUploadBody, type UploadedFile } from '../import/upload-body.js';
import { BrainImportAcceptedEnvelope, BrainImportQuery } from '../schemas/brain-import.js';
import { responses } from '../schemas/responses.js';
import { problemsFromAjv } from '../plugins/validation.js';

export interface BrainImportOptions {
  /** IMPORT_MAX_BYTES: a larger file is a 413. */
  maxBytes: number;
  /** Where uploads wait for their job (import-files.ts, importDir). */
  dir: string;
}

const wrongType = () =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `send the export file as ${Object.keys(IMPORT_MEDIA_TYPES).join(' or ')} (the body of POST /v1/brains/import)`,
  );

/**
 * POST /v1/brains/import (design §15.3): an export file, streamed to disk as it arrives, imported
 * by a job into the caller's account. The request is answered once the file is whole: 202 with
 * the job and its Location.
 */
export const brainImportRoutes: FastifyPluginAsyncTypebox<BrainImportOptions> = async (app, options) => {
  // In this scope only: the export's media types go to a file; any other body is refused.
  app.removeAllContentTypeParsers();
  registerUploadBody(app, options.dir, options.maxBytes);
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(wrongType(), undefined);
  });

  app.post(
    '/brains/import',
    {
      bodyLimit: options.maxBytes,
      schema: {
        tags: ['brains'],
        operationId: 'importBrain',
        summary: 'Import an export file (NDJSON or GraphML) as a job',
        description:
          'The body is a file from GET /v1/brains/:id/export or `snapgraph export`, sent as `application/x-ndjson` or `application/graphml+xml` (up to IMPORT_MAX_BYTES, default 256 MiB). Always a job: 202, then GET /v1/jobs/:id.',
        querystring: BrainImportQuery,
        consumes: Object.keys(IMPORT_MEDIA_TYPES),
        response: responses({ 202: BrainImportAcceptedEnvelope }, 400, 404, 413, 415),
      },
      // A brain that is not the caller's is a 404 before the file is read; a body of another
      // type is a 415 before that (design §3.7's order), and a length over the limit still a 413
      // first (the body-size check runs before this).
      preParsing: async (request, _reply, payload) => {
        if (!(mediaTypeOf(request.headers['content-type']) in IMPORT_MEDIA_TYPES)) throw wrongType();
        // The querystring is validated only after the body is read: check it here first, so that
        // `?brain_id=a&brain_id=b` (an array) is the schema's 400, not a look-up of an array.
        const validQuery = request.getValidationFunction('querystring');
        if (validQuery && !validQuery(request.query)) {
          throw validationError(problemsFromAjv(validQuery.errors ?? [], new Set()));
        }
        const { brain_id: brainId } = request.query as { brain_id?: string };
        if (brainId !== undefined) await resolveBrainId(app.domain, request.principal, brainId);
        return payload;
      },
    },
    async (request, reply) => {
      const upload = request.body as UploadedFile | undefined;
      if (upload?.path === undefined) throw wrongType();
      let id: string;
      try {
        const brainId = request.query.brain_id;
        if (brainId !== undefined) await resolveBrainId(app.domain, request.principal, brainId);
        const input: ImportJobInput = {
          file: upload.path,
          format: upload.format,
          brain_id: brainId,
          fresh_brain_id: newId('brain'),
        };
        id = await enqueueJob(app.domain, request.principal, 'import', input, request.id);
        upload.queued = true;
      } catch (err) {
        await rm(upload.path, { force: true });
        throw err;
      }
      const job = await getJob(app.domain, request.principal, id);
      const prefix = request.url.startsWith('/api/') ? '/api/v1' : '/v1';
      return reply
        .code(202)
        .header('location', `${prefix}/jobs/${id}`)
        .send({ data: { job_id: id, ...job } });
    },
  );
};
