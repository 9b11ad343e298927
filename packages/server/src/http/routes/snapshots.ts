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
