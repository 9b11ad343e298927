import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

const Health = Type.Object({ status: Type.String() });
const Readiness = Type.Object({
  status: Type.String({ description: '"ok" or "unavailable"' }),
  checks: Type.Record(Type.String(), Type.String()),
});

/** Liveness (the process answers) and readiness (its dependencies answer); no key needed. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', { schema: { tags: ['health'], security: [], response: { 200: Health } } }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { schema: { tags: ['health'], security: [], response: { 200: Readiness, 503: Readiness } } },
    async (request, reply) => {
      try {
        await app.domain.store.ping();
        return { status: 'ok', checks: { database: 'ok' } };
      } catch (err) {
        request.log.warn({ err }, 'database is not reachable');
        return reply.code(503).send({ status: 'unavailable', checks: { database: 'unreachable' } });
      }
    },
  );
};
