import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_STATUS, validationError, type ErrorCode } from '../../errors.js';
import { ProviderError, providerAppError } from '../../providers/index.js';
import { isApiPath } from './auth.js';
import { problemsFromAjv } from './validation.js';
import type { ErrorObject } from 'ajv';

/** Fields the service sets: named as read-only, not merely unknown, when a client sends them. */
const READ_ONLY_FIELDS = new Set([
  'id',
  'brain_id',
  'source_type',
  'source_id',
  'target_id',
  'created_at',
  'updated_at',
]);

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'request body is larger than 1 MiB'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['INVALID_JSON', 'request body is not valid JSON'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'Content-Length does not match the body'],
};

const CODE_BY_STATUS = new Map<number, ErrorCode>(
  (Object.entries(ERROR_STATUS) as [ErrorCode, number][])
    .filter(([code]) => code !== 'INVALID_JSON')
    .map(([code, status]) => [status, code]),
);

/** A body limit as a person reads it: "1 MiB", "256 MiB", "1,000 bytes". */
function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['MiB', 1024 * 1024],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${(bytes / size).toLocaleString('en-US')} ${unit}`;
  }
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * Whatever was thrown, as the one error type the client sees. Unknown failures hide their
 * details. `bodyLimit`: the route's (1 MiB but for POST /v1/brains/import), named in a 413.
 */
export function toAppError(err: unknown, bodyLimit?: number): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ProviderError) return providerAppError(err);
  const error = err as Partial<FastifyError> & { validation?: ErrorObject[]; statusCode?: number };
  if (error.validation) return validationError(problemsFromAjv(error.validation, READ_ONLY_FIELDS));
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && bodyLimit !== undefined)
    return new AppError('PAYLOAD_TOO_LARGE', `request body is larger than ${sizeText(bodyLimit)}`);
  if (known) return new AppError(known[0], known[1]);
  const status = error.statusCode ?? 500;
  if (err instanceof SyntaxError && status === 400)
    return new AppError('INVALID_JSON', 'request body is not valid JSON');
  if (status < 400 || status >= 500) return new AppError('INTERNAL', 'internal server error');
  // A client error of a status we have no code for is still the client's, never a 500: a
  // refused path (the docs' static files asked for `../`) is simply not there, the rest is a 400.
  if (status === 403) return new AppError('NOT_FOUND', 'not found');
  const code = CODE_BY_STATUS.get(status) ?? 'BAD_REQUEST';
  return new AppError(code, error.message ?? code.toLowerCase());
}

/** The documented error body (design §4.1): the one shape of every error, wherever it is sent. */
export function errorBody(error: AppError, requestId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    error: error.details
      ? { code: error.code, message: error.message, details: error.details }
      : { code: error.code, message: error.message },
    request_id: requestId,
  };
  const retryAfter = error.details?.retry_after;
  if (typeof retryAfter === 'number') body.retry_after = retryAfter;
  return body;
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.code === 'UNAUTHORIZED') reply.header('WWW-Authenticate', 'Bearer');
  // The body's wait is also the header's, whoever made the error (rate limiter, a provider).
  const retryAfter = error.details?.retry_after;
  if (typeof retryAfter === 'number' && !reply.hasHeader('retry-after'))
    reply.header('retry-after', String(retryAfter));
  return reply.code(error.status).send(errorBody(error, request.id));
}

/**
 * Requests the router refuses before any hook runs (a path parameter longer than the router
 * allows, a malformed percent-escape) still get the documented treatment: a request id, 401
 * then 429 first inside the API (counted, with the rate-limit headers), then the error body.
 * An over-long id cannot exist, so it is a 404.
 */
export function frameworkErrorHandler(getApp: () => FastifyInstance) {
  return async (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('X-Request-Id', request.id);
    if (isApiPath(request.url)) {
      try {
        await getApp().checkAccess(request, reply, undefined);
      } catch (accessError) {
        return sendError(request, reply, toAppError(accessError));
      }
    }
    const error =
      err.code === 'FST_ERR_BAD_URL'
        ? new AppError('BAD_REQUEST', 'the URL is malformed (invalid percent-encoding)')
        : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('NOT_FOUND', 'not found')
          : toAppError(err);
    return sendError(request, reply, error);
  };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err, request.routeOptions.bodyLimit);
    if (error.code === 'INTERNAL') request.log.error({ err }, 'request failed');
    // The provider's own words stay here, where an operator can read them (see providerAppError).
    if (err instanceof ProviderError) request.log.warn({ err }, 'provider failed');
    return sendError(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new AppError('NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`)),
  );
}
