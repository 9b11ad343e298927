import type { FastifyReply } from 'fastify';
import type { Domain } from '../domain/context.js';
import type { MaybePromise } from '../maybe.js';
import type { Principal } from '../model.js';
import type { RateLimiter } from '../ratelimit/limiter.js';

declare module 'fastify' {
  interface FastifyInstance {
    domain: Domain;
    /** Undefined when rate limits are switched off. */
    limiter: RateLimiter | undefined;
    /**
     * `draining` is set when shutdown begins: readiness fails and connections are not kept
     * alive. `closing` is set when the server stops: what still arrives gets a 503.
     */
    lifecycle: { draining: boolean; closing: boolean };
    /**
     * Authentication and the rate limit of a request (`route` undefined when none matched):
     * resolves when admitted, throws the 401 or 429 otherwise. Headers go on `reply` either way.
     */
    checkAccess(request: FastifyRequest, reply: FastifyReply, route: string | undefined): MaybePromise<void>;
  }
  interface FastifyRequest {
    /** Set by authentication on every non-public route before validation runs. */
    principal: Principal;
  }
}
