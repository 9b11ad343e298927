import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_ID = /^[\w.:@/+=-]{1,200}$/;

/**
 * Each request's id: the client's `X-Request-Id` when it sends a sane one (so its logs and
 * ours line up), otherwise a fresh `req_…`.
 */
export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  if (typeof sent === 'string' && CLIENT_ID.test(sent)) return sent;
  return `req_${randomBytes(12).toString('base64url')}`;
}
