import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../domain/keys.js';
import { AppError } from '../errors.js';
import type { Principal } from '../model.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { groupOf, limitsFor, type Limits } from '../ratelimit/policy.js';
import { rateLimited, setRateLimitHeaders } from './rate-limit.js';

/** Routes anyone may call: health, readiness and the API's own documentation. */
const PUBLIC_ROUTES = new Set(['/healthz', '/readyz', '/v1/openapi.json', '/api/v1/openapi.json']);
const PUBLIC_PREFIXES = ['/v1/docs'];
const API_PREFIXES = ['/v1/', '/api/v1/'];

/** Inside the API even a path no route serves needs a key first (401 before 404). */
export const isApiPath = (url: string): boolean => API_PREFIXES.some((prefix) => url.startsWith(prefix));

function isPublic(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  if (route === undefined) {
    // No route matched: unauthenticated clients learn nothing about which paths exist.
    return !isApiPath(request.url);
  }
  return PUBLIC_ROUTES.has(route) || PUBLIC_PREFIXES.some((prefix) => route.startsWith(prefix));
}

export interface AccessOptions {
  /** Undefined when rate limits are switched off. */
  limiter: RateLimiter | undefined;
  anonymousLimits: Limits;
}

/**
 * Who may make this request, and may they make it now: authentication, then the rate limit,
 * both on `onRequest`, before the body is read — so 401 and 429 come before 413, 415 and 400.
 * A request without a valid key is limited per client address (slowing key guessing) and
 * gets that window's headers on its 401.
 */
export function registerAccessControl(app: FastifyInstance, options: AccessOptions): void {
  const { limiter, anonymousLimits } = options;
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request, reply) => {
    if (isPublic(request)) return;
    let principal: Principal;
    try {
      principal = await authenticate(app.domain, request.headers.authorization);
    } catch (err) {
      if (limiter && err instanceof AppError && err.code === 'UNAUTHORIZED') {
        const decision = await limiter.consume(`ip:${request.ip}`, anonymousLimits);
        setRateLimitHeaders(reply, decision);
        if (!decision.allowed) throw rateLimited(reply, decision, 'unauthenticated requests from this address');
      }
      throw err;
    }
    request.principal = principal;
    if (!limiter) return;
    const group = groupOf(request.method, request.routeOptions.url ?? request.url);
    const pending = limiter.consume(`key:${principal.keyId}:${group}`, limitsFor(principal, group));
    // Awaiting only a real promise keeps the in-memory path free of an extra suspension.
    const decision = pending instanceof Promise ? await pending : pending;
    setRateLimitHeaders(reply, decision);
    if (!decision.allowed) throw rateLimited(reply, decision, group);
  });
}
