import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../domain/keys.js';
import type { Principal } from '../model.js';

/** Routes anyone may call: health, readiness and the API's own documentation. */
const PUBLIC_ROUTES = new Set(['/healthz', '/readyz', '/v1/openapi.json']);
const PUBLIC_PREFIXES = ['/v1/docs'];
const API_PREFIXES = ['/v1/', '/api/v1/'];

function isPublic(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route === undefined) {
    // No route matched: inside the API the caller must still authenticate first (401 before
    // 404), so that unauthenticated clients learn nothing about which paths exist.
    const path = request.url;
    return !API_PREFIXES.some((prefix) => path.startsWith(prefix));
  }
  return PUBLIC_ROUTES.has(route) || PUBLIC_PREFIXES.some((prefix) => route.startsWith(prefix));
}

/**
 * Authentication runs first, on `onRequest`, before the body is read: a request without a
 * valid key gets its 401 before any 413, 415 or 400.
 */
export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    if (isPublic(request)) return;
    request.principal = await authenticate(app.domain, request.headers.authorization);
  });
}
