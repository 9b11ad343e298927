import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createSnapshot,
  deleteSnapshot,
  getSnapshotJson,
  listSnapshots,
  updateSnapshot,
} from '../../domain/snapshots/index.js';
import { then } from '../../maybe.js';
import { dataEnvelope, listBody, sendJsonText } from '../json-text.js';
import { IdParamsOf } from '../schemas/common.js';
import { created, responses, withHeaders } from '../schemas/responses.js';
import {
  SnapshotCreateBody,
  SnapshotDeleted,
  SnapshotEnvelope,
  SnapshotListEnvelope,
  SnapshotListQuery,
  SnapshotUpdateBody,
} from '../schemas/snapshot.js';
import { sendCreated } from '../created.js';
import { searchSnapshots, type SearchPage } from '../../domain/search/index.js';
import { SearchEnvelope, SearchQuery } from '../schemas/search.js';

const tags = ['snapshots'];
const IdParams = IdParamsOf('snapshot', 'snap_01JDQ8Z2X4M3N5P7Q9R1S3T5V7');

export const snapshotRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/snapshots',
    {
      schema: {
        tags,
        operationId: 'createSnapshot',
        summary: 'Create a snapshot',
        description: "In the key's default brain, or in the brain named by `brain_id` (any brain of the account).",
        body: SnapshotCreateBody,
        response: responses({ 201: created(SnapshotEnvelope) }, 400, 404, 413, 415),
      },
    },
    async (request, reply) => {
      const snapshot = await createSnapshot(app.domain, request.principal, request.body);
      return sendCreated(reply, `${app.prefix}/snapshots`, snapshot);
    },
  );

  app.get(
    '/snapshots',
    {
      schema: {
        tags,
        operationId: 'listSnapshots',
        summary: 'List snapshots of a brain, newest first',
        description:
          "The key's default brain, or the one named by `brain_id`. `count` is the number of all matches; pass `cursor` (empty for the first page) for keyset pages.",
        querystring: SnapshotListQuery,
        response: responses({ 200: SnapshotListEnvelope }, 400, 404),
      },
    },
    async (request, reply) => {
      const page = await listSnapshots(app.domain, request.principal, request.query);
      sendJsonText(reply, listBody(page, 'count', request.query.cursor !== undefined));
    },
  );

  app.get(
    '/snapshots/search',
    {
      schema: {
        tags,
        operationId: 'searchSnapshots',
        summary: 'Search snapshots: text relevance, influenced by the graph (docs/ranking.md)',
        description: 'Results may be cached by the client for 30 to 60 seconds (design §5.8).',
        querystring: SearchQuery,
        response: responses({ 200: withHeaders(SearchEnvelope, 'Cache-Control') }, 400, 404),
      },
    },
    async (request, reply) => {
      const page = await searchSnapshots(app.domain, request.principal, request.query);
      // Design §5.8: clients may keep search results 30 to 60 seconds.
      reply.header('cache-control', 'private, max-age=30');
      sendJsonText(reply, searchBody(page));
    },
  );

  app.get(
    '/snapshots/:id',
    {
      schema: {
        tags,
        operationId: 'getSnapshot',
        summary: 'Get one snapshot',
        params: IdParams,
        response: responses({ 200: SnapshotEnvelope }, 400, 404),
      },
    },
    // The database builds the snapshot's JSON; sent as text, it skips object building and
    // serialization (the response schema still documents it).
    (request, reply) =>
      then(getSnapshotJson(app.domain, request.principal, request.params.id), (json) =>
        sendJsonText(reply, dataEnvelope(json)),
      ),
  );

  app.put(
    '/snapshots/:id',
    {
      schema: {
        tags,
        operationId: 'updateSnapshot',
        summary: 'Update a snapshot: only the fields sent change; tags are replaced',
        params: IdParams,
        body: SnapshotUpdateBody,
        response: responses({ 200: SnapshotEnvelope }, 400, 404, 413, 415),
      },
    },
    async (request) => ({
      data: await updateSnapshot(app.domain, request.principal, request.params.id, request.body),
    }),
  );

  app.delete(
    '/snapshots/:id',
    {
      schema: {
        tags,
        operationId: 'deleteSnapshot',
        summary: 'Delete a snapshot and every edge attached to it',
        params: IdParams,
        response: responses({ 200: SnapshotDeleted }, 400, 404),
      },
    },
    async (request) => {
      await deleteSnapshot(app.domain, request.principal, request.params.id);
      return { data: { success: true } };
    },
  );
};

/** The search body as text: each result is the database's snapshot JSON with its score fields. */
function searchBody(page: SearchPage): string {
  const data = page.results.map((r) => {
    const extra = {
      score: r.score,
      similarity: r.score.toFixed(4),
      contradicted_by: r.contradicted_by,
      ...(r.explain ? { explain: r.explain } : {}),
    };
    return `${r.json.slice(0, -1)},${JSON.stringify(extra).slice(1)}`;
  });
  return `{"data":[${data.join(',')}],"count":${page.count},"query":${JSON.stringify(page.query)}}`;
}
