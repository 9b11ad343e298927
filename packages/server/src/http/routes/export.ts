import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import { Type, type TSchema } from 'typebox';
import { getBrain } from '../../domain/brains/index.js';
import {
  EXPORT_FORMATS,
  exportBrain,
  FORMAT_NAME,
  FORMAT_VERSION,
  type ExportFormat,
} from '../../domain/transfer/index.js';
import { IdParamsOf } from '../schemas/common.js';
import { responses } from '../schemas/responses.js';

const ExportQuery = Type.Object(
  {
    // An enum, not a union of literals: a wrong value's 400 then lists the allowed ones.
    format: Type.Optional(
      Type.Enum([...EXPORT_FORMATS], { default: 'jsonl', description: 'jsonl (NDJSON, the default) or graphml' }),
    ),
  },
  { additionalProperties: false },
);

const CONTENT_TYPES = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  graphml: 'application/graphml+xml; charset=utf-8',
};

/**
 * The 200 under the media types actually sent, so that the document (and the client generated
 * from it) does not promise JSON. A stream is sent past the serializer, so Fastify uses neither.
 */
const EXPORT_FILE = {
  description: 'The export file: NDJSON (format=jsonl, the default) or GraphML (format=graphml)',
  content: {
    'application/x-ndjson': { schema: Type.String({ title: 'ExportFile', description: 'One JSON object a line' }) },
    'application/graphml+xml': { schema: Type.String({ title: 'ExportGraphml', description: 'A GraphML document' }) },
  },
} as unknown as TSchema;

/**
 * GET /v1/brains/:id/export (design §15.1): the brain's export file, streamed as it is read, so a
 * brain of any size costs the server the same memory. Counts as a read of brains.
 */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/brains/:id/export',
    {
      schema: {
        tags: ['brains'],
        operationId: 'exportBrain',
        summary: 'Export a brain: snapshots, edges, tombstones, memories and knowledge, streamed',
        description:
          `NDJSON: a header line (\`{"format": "${FORMAT_NAME}", "version": ${FORMAT_VERSION}, …}\`), then one ` +
          '`{"kind", "data"}` line per record — the brain, its snapshots, its edges (with `origin`) and its ' +
          'tombstones, its memories, knowledge sources and entries — and an end line with the count of each kind. `snapgraph import` reads it back. ' +
          'With `format=graphml`: the graph (snapshots as nodes, edges as edges) for graph tools.',
        params: IdParamsOf('brain', 'brain_01JDQ8YF3K2M4N6P8Q0R2S4T6V'),
        querystring: ExportQuery,
        response: responses({ 200: EXPORT_FILE }, 400, 404),
      },
    },
    async (request, reply) => {
      const brain = await getBrain(app.domain, request.principal, request.params.id);
      const format = (request.query.format ?? 'jsonl') as ExportFormat;
      const extension = format === 'graphml' ? 'graphml' : 'jsonl';
      reply
        .type(CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${brain.id}.${extension}"`);
      // A stream is sent as it is, past the response schema's serializer.
      return reply.send(Readable.from(exportBrain(app.domain, brain.id, format)) as unknown as string);
    },
  );
};
