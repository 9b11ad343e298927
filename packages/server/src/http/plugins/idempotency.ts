import type {
  FastifyInstance,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import {
  checkIdempotencyKey,
  keepResponse,
  releaseKey,
  requestFingerprint,
  reserveKey,
  type KeyHold,
} from '../../domain/idempotency/index.js';

/** The headers a replay repeats: what the response means. Request ids and rate limits are fresh. */
const KEPT_HEADERS = ['content-type', 'location', 'preference-applied'];

interface IdempotentRequest {
  key: string;
  fingerprint: string;
  hold?: KeyHold;
  /** Settled: replayed, kept or released; nothing more to do. */
  settled?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotentRequest | null;
  }
}

/**
 * `Idempotency-Key` on every POST, whichever route (design §3.8): hooks, no code in routes.
 *
 * Where it sits in the order of checks: authentication and the rate limit come first (a
 * replay counts against the limit like any request), then the body's 413/415/400 — a request
 * that fails validation is answered at once and its answer is not kept, since the same
 * request always fails the same way. Then, before the route's work, the key: the first
 * request with it is answered normally and its response kept; the same request again gets that
 * response back (`Idempotent-Replayed: true`); another request with the key, or the same one
 * while the first is still being answered, is a 409. Responses that say "try again" — 5xx and
 * 429 — are not kept, so a retry does the work.
 */
export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest('idempotency', null);

  // The key is checked and the body fingerprinted before validation: validation may fill in
  // defaults, and two requests are the same by what the client sent.
  const checkKey: preValidationAsyncHookHandler = async (request) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.principal) return;
    const key = checkIdempotencyKey(header);
    request.idempotency = { key, fingerprint: requestFingerprint(request.method, request.url, request.body) };
  };

  const reserveOrReplay: preHandlerAsyncHookHandler = async (request, reply) => {
    const idempotency = request.idempotency;
    if (!idempotency) return;
    const reservation = await reserveKey(
      app.domain,
      request.principal.accountId,
      idempotency.key,
      idempotency.fingerprint,
    );
    if ('held' in reservation) {
      idempotency.hold = reservation.held;
      return;
    }
    idempotency.settled = true;
    const { status, headers, body } = reservation.replay;
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    reply.header('idempotent-replayed', 'true');
    return reply.code(status).send(body);
  };

  const keep: onSendAsyncHookHandler = async (request, reply, payload) => {
    const idempotency = request.idempotency;
    if (!idempotency?.hold || idempotency.settled) return payload;
    idempotency.settled = true;
    const status = reply.statusCode;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    try {
      if (status >= 500 || status === 429 || body === null) await releaseKey(app.domain, idempotency.hold);
      else await keepResponse(app.domain, idempotency.hold, { status, headers: keptHeaders(reply), body });
    } catch (err) {
      // The work is done and its answer goes out; only a retry's replay is lost.
      request.log.warn({ err }, 'could not keep the response for Idempotency-Key');
    }
    return payload;
  };

  // A safety net: a request that ended without its response passing onSend lets its key go.
  // (A client that hung up is not that: its response still passes onSend and is kept, so its
  // retry gets it.)
  const letGo: onResponseAsyncHookHandler = async (request) => {
    const idempotency = request.idempotency;
    if (!idempotency?.hold || idempotency.settled) return;
    idempotency.settled = true;
    await releaseKey(app.domain, idempotency.hold).catch(() => undefined);
  };

  // On POST routes only, each route as it is added (present and future): the other methods
  // pay nothing for it.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preValidation = [...hooks(route.preValidation), checkKey];
    route.preHandler = [reserveOrReplay, ...hooks(route.preHandler)];
    route.onSend = [...hooks(route.onSend), keep];
    route.onResponse = [...hooks(route.onResponse), letGo];
  });
}

/** A route's own hooks of one kind, none, one or several, as a list. */
function hooks<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function keptHeaders(reply: { getHeader(name: string): unknown }): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) kept[name] = String(value);
  }
  return kept;
}
