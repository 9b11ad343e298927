import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { finishDocument } from '../openapi/finish-document.js';

/**
 * The OpenAPI 3.1 document, generated from the same TypeBox schemas that validate requests,
 * at /v1/openapi.json, and a readable page over it at /v1/docs. Routes under /api/v1 are the
 * same routes under a second prefix (the document and the page too); the document lists each
 * path once, under /v1, and names /api as a second server, so that `/api` + `/v1/…` is the
 * alias (docs/decisions.md).
 */
export const DOCS_PREFIXES = ['/v1/docs', '/api/v1/docs'];

export const SERVERS = [
  { url: '/', description: 'This server: every path under /v1' },
  { url: '/api', description: 'The same API under /api/v1 (an alias of /v1: the same routes, keys and limits)' },
];

const TAGS = [
  { name: 'snapshots', description: 'Structured records of a belief, insight, model, rule, conviction or principle' },
  { name: 'edges', description: 'Typed, weighted, directed connections between two snapshots of one brain' },
  { name: 'brains', description: 'The containers of snapshots and edges, owned by an account' },
  { name: 'health', description: 'Liveness and readiness, without a key' },
];

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Snapgraph API',
        version,
        description:
          'Snapshots, typed weighted edges and brains. Every path under /v1 is also served under /api/v1 (the second server). ' +
          'Every error has the `Error` body; a method a path does not serve answers 405 `MethodNotAllowed` with `Allow`.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: SERVERS,
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, `sg_…`: `snapgraph keys create`' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    // Paths stay as the routes declare them (/v1/…): `servers` only adds a prefix in front.
    stripBasePath: false,
    // Components are named by their schema's `$id`; `def-N` would mean one without a name, which
    // the document test refuses. Named schemas use `title` instead (finish-document.ts).
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
    transform: ({ schema, url }) => {
      const hidden = url.startsWith('/api/') || url.startsWith('/v1/docs');
      return { schema: hidden ? { ...schema, hide: true } : withUploadBody(schema), url };
    },
    transformObject: (document) =>
      'openapiObject' in document ? finishDocument(document.openapiObject) : document.swaggerObject,
  });
  // Each page in a scope of its own: the UI plugin decorates its scope with a static server.
  for (const routePrefix of DOCS_PREFIXES) {
    await app.register(async (scope) =>
      scope.register(swaggerUi, { routePrefix, staticCSP: true, transformStaticCSP: docsPolicy }),
    );
  }
  for (const url of ['/v1/openapi.json', '/api/v1/openapi.json']) {
    app.get(url, { schema: { hide: true } }, async () => app.swagger());
  }
}

/**
 * Swagger UI's own policy, less `upgrade-insecure-requests`: over plain HTTP on any address but
 * loopback (HOST=0.0.0.0 and the machine's address) it sent the browser to fetch the page's
 * script and styles over https, and the page stayed blank. Never framed, as every other answer.
 */
function docsPolicy(header: string): string {
  return header
    .replace(/\s*upgrade-insecure-requests;?/, '')
    .replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'")
    .trim();
}

/**
 * A route that takes a file (POST /v1/brains/import) names its media types in `consumes` and has
 * no `body` schema, since Fastify would validate the file against it: the document gets a body of
 * those types here, for the document only.
 */
function withUploadBody<T extends { consumes?: readonly string[]; body?: unknown }>(schema: T): T {
  if (!schema?.consumes || schema.body !== undefined) return schema;
  return {
    ...schema,
    body: { title: 'ImportFile', type: 'string', format: 'binary' },
  };
}
