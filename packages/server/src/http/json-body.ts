import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies through Fastify's own safe parser (prototype poisoning refused), except that an
 * empty body is "no body": a DELETE sent with a JSON content type and nothing after it is
 * fine, and a POST or PUT without a body fails validation with a clear message instead.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
