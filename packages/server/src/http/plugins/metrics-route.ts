import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics/index.js';
import { groupOfRequest } from '../../ratelimit/policy.js';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` in Prometheus's text format, without a key (as scrapers expect: keep the port
 * private, or block the path at the proxy), and the count of 429s by group. Registered only with
 * METRICS=true.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.get(METRICS_PATH, { schema: { hide: true } }, async (_request, reply) => {
    const text = await metrics.text();
    return reply.type(metrics.contentType).send(text);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode === 429) {
      // Without a principal the request was limited per client address, not by a key's group.
      const principal = request.principal as unknown;
      metrics.observeRefusal(
        principal ? groupOfRequest(request.method, request.routeOptions.url, request.url) : 'anonymous',
      );
    }
    done();
  });
  app.addHook('onClose', async () => metrics.close());
}
