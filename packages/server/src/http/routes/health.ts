import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { describedAs } from '../schemas/responses.js';

const Health = Type.Object(
  { status: Type.String({ description: 'Always "ok": the process answers' }) },
  { title: 'Health', description: 'The process answers', examples: [{ status: 'ok' }] },
);
const Readiness = Type.Object(
  {
    status: Type.String({
      description:
        '"ok", "degraded" (Redis down: per-instance limits; the embedding provider down: vectors wait; the LLM provider unavailable at its last call: crystallize and ingestion answer 503), "draining" (shutting down) or "unavailable"',
    }),
    checks: Type.Record(Type.String(), Type.String(), {
      description: 'Each dependency and its state, e.g. database: ok',
    }),
  },
  {
    title: 'Readiness',
    description: 'Ready (degraded still serves)',
    examples: [{ status: 'ok', checks: { database: 'ok' } }],
  },
);
const tags = ['health'];

/** Liveness (the process answers) and readiness (its dependencies answer); no key needed. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags,
        operationId: 'getHealth',
        summary: 'Liveness: the process answers',
        security: [],
        response: { 200: Health },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers (503 when it does not, or while draining)',
        security: [],
        response: {
          200: Readiness,
          503: describedAs(Readiness, 'Not ready: the database does not answer, or the instance is draining'),
        },
      },
    },
    async (request, reply) => {
      // A Redis outage degrades rate limits to per-instance but does not stop service, so it
      // is reported without taking the instance out of a load balancer's rotation.
      if (app.lifecycle.draining) {
        return reply.code(503).send({ status: 'draining', checks: {} });
      }
      // An embedding provider that does not answer delays vectors; search still answers.
      const { semantic, llm } = app.domain;
      const limiterChecks = {
        ...app.limiter?.health(),
        ...(semantic ? { embeddings: semantic.providerState === 'unavailable' ? 'unavailable' : 'ok' } : {}),
        ...(llm ? { llm: llm.state } : {}),
      };
      const degraded = Object.values(limiterChecks).some((state) => state !== 'ok');
      try {
        await app.domain.store.ping();
        return { status: degraded ? 'degraded' : 'ok', checks: { database: 'ok', ...limiterChecks } };
      } catch (err) {
        request.log.warn({ err }, 'database is not reachable');
        return reply.code(503).send({ status: 'unavailable', checks: { database: 'unreachable', ...limiterChecks } });
      }
    },
  );
};
