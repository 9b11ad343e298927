import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI 3.1 document, generated from the same TypeBox schemas that validate requests,
 * at /v1/openapi.json, and a readable page over it at /v1/docs. Routes under /api/v1 are the
 * same routes under a second prefix (the document and the page too); the document lists them
 * once, under /v1.
 */
export const DOCS_PREFIXES = ['/v1/docs', '/api/v1/docs'];

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Snapgraph API',
        version,
        description: 'Snapshots, typed weighted edges and brains. Every path under /v1 is also served under /api/v1.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An sg_… API key' } },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: ({ schema, url }) => {
      const hidden = url.startsWith('/api/') || url.startsWith('/v1/docs');
      return { schema: hidden ? { ...schema, hide: true } : schema, url };
    },
  });
  // Each page in a scope of its own: the UI plugin decorates its scope with a static server.
  for (const routePrefix of DOCS_PREFIXES) {
    await app.register(async (scope) => scope.register(swaggerUi, { routePrefix, staticCSP: true }));
  }
  for (const url of ['/v1/openapi.json', '/api/v1/openapi.json']) {
    app.get(url, { schema: { hide: true } }, async () => app.swagger());
  }
}
