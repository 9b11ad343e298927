import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The web explorer (packages/web), served at `/` by the server itself, so that `npm start` and a
 * browser are all it takes (design §17). The API stays under /v1; these routes are public (the
 * page holds no data: every call it makes carries the key the user pastes).
 */

/** The routes this module adds; the access-control hook lets them through without a key. */
export const WEB_ROUTES = new Set(['/', '/index.html', '/assets/*', '/favicon.svg']);

/**
 * packages/web/dist, from this file in packages/server/src/http or packages/server/dist/http:
 * both are three folders below packages/.
 */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

// Vite names every asset by its content's hash: a file's name changes whenever it does, so it may
// be kept for a year. index.html names the current assets and must be asked for every time.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Snapgraph explorer not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The Snapgraph explorer is not built</h1>
<p>The API is running under <code>/v1</code> (documentation at <a href="/v1/docs">/v1/docs</a>), but the web
explorer's files were not found.</p>
<p>Build it from the repository's root with:</p>
<pre>npm install
npm run build</pre>
<p>then restart the server and reload this page.</p>
</body></html>
`;

export async function registerWebExplorer(app: FastifyInstance, root: string = DEFAULT_WEB_ROOT): Promise<void> {
  if (!existsSync(`${root}/index.html`)) {
    // Never a crash and never a bare 404: say how to get the page.
    const missing = async (_request: unknown, reply: FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(MISSING_BUILD_PAGE);
    app.get('/', { schema: { hide: true } }, missing);
    app.get('/index.html', { schema: { hide: true } }, missing);
    return;
  }
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root,
      // Only the routes below: the plugin's own wildcard would also answer /v1/… paths.
      wildcard: false,
      serve: false,
      cacheControl: false,
      etag: true,
      lastModified: true,
    });
    const sendIndex = async (_request: unknown, reply: FastifyReply) =>
      reply.header('cache-control', REVALIDATE).sendFile('index.html');
    scope.get('/', { schema: { hide: true } }, sendIndex);
    scope.get('/index.html', { schema: { hide: true } }, sendIndex);
    scope.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) =>
      reply.header('cache-control', REVALIDATE).sendFile('favicon.svg'),
    );
    scope.get<{ Params: { '*': string } }>('/assets/*', { schema: { hide: true } }, async (request, reply) =>
      reply.header('cache-control', IMMUTABLE).sendFile(`assets/${request.params['*']}`),
    );
  });
}
