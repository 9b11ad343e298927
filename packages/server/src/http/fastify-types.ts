import type { Domain } from '../domain/context.js';
import type { Principal } from '../model.js';

declare module 'fastify' {
  interface FastifyInstance {
    domain: Domain;
  }
  interface FastifyRequest {
    /** Set by authentication on every non-public route before validation runs. */
    principal: Principal;
  }
}
