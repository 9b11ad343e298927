// FAST PATH. What it buys: GET one snapshot at 1.26× the naive Fastify + better-sqlite3 server
// and 0.60× the raw node:http ceiling (docs/performance.md, "The HTTP hot paths"; rerun:
// `npm run bench -- --only reads`).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AccessLog } from '../plugins/access-log.js';
import type { FastifyInstance, FastifyServerFactory, RawServerDefault } from 'fastify';
import { keyHashOfHeader, principalOf } from '../../domain/keys/index.js';
import type { Principal } from '../../model.js';
import { groupOfRoute, limitsFor } from '../../ratelimit/policy.js';
import { keyBucket } from '../plugins/auth.js';
import { dataEnvelope, JSON_CONTENT_TYPE } from '../json-text.js';
import { rateLimitHeaderLines } from '../plugins/rate-limit.js';
import { canWriteReadyHead, writeReadyHead } from './ready-head.js';
import { requestIdFor } from '../plugins/request-id.js';
import { API_CSP } from '../plugins/security-headers.js';
import { endInTurn } from './turn-batch.js';

interface Found {
  principal: Principal;
  json: string;
}

/** Answers a request and returns true, or returns false having changed nothing. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

export const NO_FAST_PATH: FastPath = () => false;

/** What Fastify passes a server factory: its options, with its defaults filled in. */
interface ServerSettings {
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket?: number;
}

/**
 * Fastify's server, with requests offered to a fast path first. The settings are the ones
 * Fastify gives the server it makes itself when there is no factory.
 */
export function serverWithFastPath(fastPath: FastPath): FastifyServerFactory<RawServerDefault> {
  return (fastify, options) => {
    const settings = options as unknown as ServerSettings;
    const server = createServer((request, response) => {
      if (!fastPath(request, response)) fastify(request, response);
    });
    server.keepAliveTimeout = settings.keepAliveTimeout;
    server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout);
    if (settings.maxRequestsPerSocket) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
    return server;
  };
}

/** `GET /v1/snapshots/:id` (or `/api/v1/…`) with an id of the kind we issue, and nothing else. */
const SNAPSHOT_URL = /^\/(?:api\/)?v1\/snapshots\/([A-Za-z0-9_]{1,100})$/;

/**
 * `GET /v1/snapshots/:id`, the most frequent request, answered without Fastify's request and
 * reply objects, hooks and routing — which cost more than everything Snapgraph itself does for
 * the request (docs/performance.md). It does what the Fastify route does, in the same order, and
 * sends the same bytes: authenticate, look the snapshot up, take the rate limit, answer 200 with
 * the request id and rate-limit headers (written with the turn's other answers when the server is
 * busy: turn-batch.ts), log one line.
 *
 * Only the plain success is answered here. Anything else (another method or spelling of the
 * path, a body, a bad or unknown key, an unknown snapshot, a refused rate limit, shutdown)
 * returns false before anything is consumed or sent, and Fastify answers it exactly as it
 * answers everything else: the two never disagree about an error. Only where every step is
 * synchronous (the embedded store, the in-memory limiter) is there a fast path at all.
 */
/** The route patterns Fastify would have matched, for metrics. */
const ROUTE = '/v1/snapshots/:id';
const API_ROUTE = '/api/v1/snapshots/:id';

export function snapshotReadFastPath(app: FastifyInstance, accessLog: AccessLog): FastPath {
  const { domain, limiter } = app;
  // The store's synchronous reads (StoreCapabilities): only the embedded store has them.
  const reads = domain.store.capabilities.immediateReads;
  if (reads === undefined || !canWriteReadyHead) return NO_FAST_PATH;
  // A limiter that decides without waiting (in memory), or none.
  const consumeNow = limiter?.consumeNow?.bind(limiter);
  if (limiter !== undefined && consumeNow === undefined) return NO_FAST_PATH;
  /** The caller and the snapshot, or undefined when either is missing (throws on a bad key). */
  const lookUp = (authorization: string | undefined, id: string): Found | undefined => {
    const principal = principalOf(reads.findApiKeyByHash(keyHashOfHeader(authorization)));
    const json = reads.getSnapshotJson(principal.accountId, id);
    return json === undefined ? undefined : { principal, json };
  };
  const group = groupOfRoute('GET', '/v1/snapshots/:id');

  return (request, response) => {
    const { lifecycle } = app;
    if (request.method !== 'GET' || lifecycle.closing || lifecycle.draining) return false;
    const url = request.url as string;
    const match = SNAPSHOT_URL.exec(url);
    if (match === null) return false;
    const headers = request.headers;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (headers.expect !== undefined) return false; // writeHead's 100-continue handling is Fastify's
    const started = performance.now();

    let found: Found | undefined;
    try {
      // One read transaction for the key and the snapshot: one state, one lock cycle.
      found = reads.readTogether(() => lookUp(headers.authorization, match[1] as string));
    } catch {
      return false;
    }
    if (found === undefined) return false;
    const { principal, json } = found;

    let limitLines = '';
    if (consumeNow !== undefined) {
      const decision = consumeNow(keyBucket(principal.keyId, group), limitsFor(principal, group));
      if (!decision.allowed) return false;
      limitLines = rateLimitHeaderLines(decision);
    }
    // The id is ours, or the client's when it passed requestIdFor's pattern: a header value.
    const id = requestIdFor(request);
    const body = dataEnvelope(json);
    writeReadyHead(response, `x-request-id: ${id}\r\n${limitLines}`, [
      'content-type',
      JSON_CONTENT_TYPE,
      // security-headers.ts's, in the order Fastify's onSend hook adds them.
      'x-content-type-options',
      'nosniff',
      'x-frame-options',
      'DENY',
      'content-security-policy',
      API_CSP,
      'content-length',
      String(Buffer.byteLength(body)),
    ]);
    endInTurn(response, body);
    accessLog.write(id, 'GET', url, 200, performance.now() - started, url.startsWith('/api/') ? API_ROUTE : ROUTE);
    return true;
  };
}
