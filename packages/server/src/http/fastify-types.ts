import type { Domain } from '../domain/context.js';
import type { Principal } from '../model.js';
import type { RateLimiter } from '../ratelimit/limiter.js';

declare module 'fastify' {
  interface FastifyInstance {
    domain: Domain;
    /** Undefined when rate limits are switched off. */
    limiter: RateLimiter | undefined;
    /** Set when shutdown begins: readiness fails and connections are not kept alive. */
    lifecycle: { draining: boolean };
  }
  interface FastifyRequest {
    /** Set by authentication on every non-public route before validation runs. */
    principal: Principal;
  }
}
