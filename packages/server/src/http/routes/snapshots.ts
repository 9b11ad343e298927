import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createSnapshot,
  deleteSnapshot,
  getSnapshotJson,
  listSnapshots,
  updateSnapshot,
} from '../../domain/snapshots.js';
import { then } from '../../maybe.js';
import { dataEnvelope, listBody, sendJsonText } from '../json-text.js';
import { IdParams, responses } from '../schemas/common.js';
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

export const snapshotRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/snapshots',
    {
      schema: {
        tags,
        summary: 'Create a snapshot',
        body: SnapshotCreateBody,
        response: responses({ 201: SnapshotEnvelope }),
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
        summary: 'List snapshots of a brain, newest first',
        querystring: SnapshotListQuery,
        response: responses({ 200: SnapshotListEnvelope }),
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
        summary: 'Search snapshots: text relevance, influenced by the graph (docs/ranking.md)',
        querystring: SearchQuery,
        response: responses({ 200: SearchEnvelope }),
      },
    },
    async (request, reply) => {
      const page = await searchSnapshots(app.domain, request.principal, request.query);
      // Spec 8.4: clients may keep search results 30 to 60 seconds.
      reply.header('cache-control', 'private, max-age=30');
      sendJsonText(reply, searchBody(page));
    },
  );

  app.get(
    '/snapshots/:id',
    {
      schema: { tags, summary: 'Get one snapshot', params: IdParams, response: responses({ 200: SnapshotEnvelope }) },
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
        summary: 'Update a snapshot: only the fields sent change; tags are replaced',
        params: IdParams,
        body: SnapshotUpdateBody,
        response: responses({ 200: SnapshotEnvelope }),
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
        summary: 'Delete a snapshot and every edge attached to it',
        params: IdParams,
        response: responses({ 200: SnapshotDeleted }),
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
