import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../../domain/keys/index.js';
import { AppError } from '../../errors.js';
import { then, type MaybePromise } from '../../maybe.js';
import type { Principal } from '../../model.js';
import type { RateLimiter } from '../../ratelimit/limiter.js';
import type { Decision } from '../../ratelimit/decision.js';
import { groupOfRequest, limitsFor, type Limits, type RateLimitGroup } from '../../ratelimit/policy.js';
import { DOCS_PREFIXES } from './openapi.js';
import { rateLimited, setRateLimitHeaders } from './rate-limit.js';
import { WEB_ROUTES } from './web-explorer.js';

/** Routes anyone may call: health, readiness, metrics, the API's own documentation and the web explorer's page. */
const PUBLIC_ROUTES = new Set(['/healthz', '/readyz', '/metrics', '/v1/openapi.json', '/api/v1/openapi.json']);
const PUBLIC_PREFIXES = DOCS_PREFIXES;
const API_PREFIXES = ['/v1/', '/api/v1/'];

/** Inside the API even a path no route serves needs a key first (401 before 404). */
export const isApiPath = (url: string): boolean => API_PREFIXES.some((prefix) => url.startsWith(prefix));

function isPublic(request: FastifyRequest, route: string | undefined): boolean {
  if (route === undefined) {
    // No route matched: unauthenticated clients learn nothing about which paths exist.
    return !isApiPath(request.url);
  }
  return (
    PUBLIC_ROUTES.has(route) || WEB_ROUTES.has(route) || PUBLIC_PREFIXES.some((prefix) => route.startsWith(prefix))
  );
}

const bucketNames = new Map<string, Partial<Record<RateLimitGroup, string>>>();
const MAX_BUCKET_KEYS = 10_000;

/**
 * The limiter's bucket for a key and group, `key:<key id>:<group>`. Remembered per key: a name
 * built afresh on every request would be hashed afresh for every lookup.
 */
export function keyBucket(keyId: string, group: RateLimitGroup): string {
  let names = bucketNames.get(keyId);
  if (names === undefined) {
    if (bucketNames.size >= MAX_BUCKET_KEYS) bucketNames.clear();
    names = {};
    bucketNames.set(keyId, names);
  }
  return (names[group] ??= `key:${keyId}:${group}`);
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
 *
 * On the embedded store both steps usually answer synchronously, and then the hook completes
 * without a promise or a suspension: it is on every request.
 */
export function registerAccessControl(app: FastifyInstance, options: AccessOptions): void {
  const { limiter, anonymousLimits } = options;
  app.decorateRequest('principal', null as unknown as Principal);

  const admit = (
    request: FastifyRequest,
    reply: FastifyReply,
    route: string | undefined,
    principal: Principal,
  ): MaybePromise<void> => {
    request.principal = principal;
    if (!limiter) return;
    const group = groupOfRequest(request.method, route, request.url);
    const decision = limiter.consume(keyBucket(principal.keyId, group), limitsFor(principal, group));
    if (decision instanceof Promise) return decision.then((ready) => answer(reply, ready, group));
    answer(reply, decision, group);
  };

  /** The headers of every admitted or refused request; the 429 when refused. */
  const answer = (reply: FastifyReply, decision: Decision, group: RateLimitGroup): void => {
    setRateLimitHeaders(reply, decision);
    if (!decision.allowed) throw rateLimited(reply, decision, group);
  };

  const refuse = (request: FastifyRequest, reply: FastifyReply, err: unknown): MaybePromise<never> => {
    if (!limiter || !(err instanceof AppError) || err.code !== 'UNAUTHORIZED') throw err;
    return then(limiter.consume(`ip:${request.ip}`, anonymousLimits), (decision) => {
      setRateLimitHeaders(reply, decision);
      if (!decision.allowed) throw rateLimited(reply, decision, 'unauthenticated requests from this address');
      throw err;
    });
  };

  /** Authenticates and takes the rate limit; throws (or rejects with) the 401 or 429. */
  const checkAccess = (request: FastifyRequest, reply: FastifyReply, route: string | undefined): MaybePromise<void> => {
    try {
      const principal = authenticate(app.domain, request.headers.authorization);
      return principal instanceof Promise
        ? principal.then(
            (ready) => admit(request, reply, route, ready),
            (err: unknown) => refuse(request, reply, err),
          )
        : admit(request, reply, route, principal);
    } catch (err) {
      return refuse(request, reply, err);
    }
  };
  app.decorate('checkAccess', checkAccess);

  app.addHook('onRequest', (request, reply, done) => {
    // Read once: Fastify builds a fresh object for every read of routeOptions.
    const route = request.routeOptions.url;
    if (isPublic(request, route)) return done();
    let outcome: MaybePromise<void>;
    try {
      outcome = checkAccess(request, reply, route);
    } catch (refusal) {
      return done(refusal as Error);
    }
    if (outcome instanceof Promise) outcome.then(() => done(), done);
    else done();
  });
}
