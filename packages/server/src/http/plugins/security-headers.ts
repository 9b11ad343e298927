import type { FastifyInstance } from 'fastify';

/**
 * The explorer's policy: its own built script and style sheet only (Vite emits no inline script
 * or style, and the code sets styles through the CSSOM, which a policy does not restrict), calls
 * to this server only, never framed. Checked against packages/web/dist in headless Chromium: no
 * violation reported while the page loads (docs/api.md).
 */
export const EXPLORER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  // The graph's layout worker is a built file of the explorer's own (packages/web), not a blob: URL.
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The API's own paths: everything else the server answers is the explorer's. */
const API_PATH = /^\/(api\/)?v1(\/|\?|$)|^\/(healthz|readyz|metrics)(\/|\?|$)/;

/** Everything else (JSON, text, errors) is data, never a page: it may load nothing and be framed by nobody. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Security headers on every answer: no content-type sniffing (a JSON error echoing a client's
 * text never runs as HTML), no framing (clickjacking), and a Content-Security-Policy — the
 * explorer's for HTML pages, none-at-all for the rest. A route that sets its own policy (the
 * API docs page, whose Swagger UI carries one) keeps it.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('content-security-policy')) {
      const type = String(reply.getHeader('content-type') ?? '');
      // A 304 has no content type, and its headers replace the cached page's: a revalidated
      // explorer page must keep the explorer's policy, or the browser blocks its own script.
      const page = type.startsWith('text/html') || (reply.statusCode === 304 && !API_PATH.test(request.url));
      reply.header('content-security-policy', page ? EXPLORER_CSP : API_CSP);
    }
    done(null, payload);
  });
}
