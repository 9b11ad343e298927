import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_ID = /^[\w.:@/+=-]{1,200}$/;

// Unique, not secret: a random per-process prefix and a counter. Drawing random bytes for
// every request cost about 5% of a one-snapshot GET.
const processPrefix = `req_${randomBytes(6).toString('base64url')}`;
let counter = 0;

/**
 * Each request's id: the client's `X-Request-Id` when it sends a sane one (so its logs and
 * ours line up), otherwise a fresh `req_…`.
 */
export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  if (typeof sent === 'string' && CLIENT_ID.test(sent)) return sent;
  return freshRequestId();
}

/** A new `req_…` id, for a request whose headers could not be read too. */
export function freshRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${processPrefix}${counter.toString(36).padStart(6, '0')}`;
}
