import { METHODS as HTTP_METHODS } from 'node:http';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { AppError } from '../../errors.js';
import { errorResponses } from '../schemas/responses.js';

/**
 * Every method Node's parser accepts — TRACE, PROPFIND and the rest too, so that a known path
 * answers any method with its handler or a 405, never a 404. CONNECT never reaches a route.
 */
const METHODS = HTTP_METHODS.filter((method) => method !== 'CONNECT') as HTTPMethods[];

/**
 * Records every route as it is added, so that `registerMethodNotAllowed` can answer 405 with
 * an `Allow` header for the methods a known path does not serve (Fastify alone would say 404).
 */
export function trackRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const methodsByUrl = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const known = methodsByUrl.get(route.url) ?? new Set<string>();
    for (const method of methods) known.add(method);
    methodsByUrl.set(route.url, known);
  });
  return methodsByUrl;
}

export function registerMethodNotAllowed(app: FastifyInstance, methodsByUrl: Map<string, Set<string>>): void {
  for (const method of METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);
  for (const [url, served] of [...methodsByUrl]) {
    const missing = METHODS.filter((method) => !served.has(method));
    if (missing.length === 0 || url.includes('*')) continue;
    const allow = [...served].sort().join(', ');
    app.route({
      method: missing,
      url,
      schema: { hide: true, response: errorResponses(405) },
      handler: async (request, reply) => {
        reply.header('Allow', allow);
        throw new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; allowed: ${allow}`);
      },
    });
  }
}
