/**
 * Every failure the service answers (and a 429 that outlasted its retries) as one class, with
 * the fields of the service's error body: `{ error: { code, message, details }, request_id }`.
 */
export class SnapgraphError extends Error {
  override readonly name = 'SnapgraphError';
  /** The HTTP status, e.g. 404; 0 when no answer came (`NETWORK_ERROR`). */
  readonly status: number;
  /** The service's error code, e.g. `NOT_FOUND`; `HTTP_<status>` when the body was not ours (a proxy's page). */
  readonly code: string;
  /** `details` of the error body: `field`, `reason`, `errors`, `retry_after`, … when the service sent them. */
  readonly details: Record<string, unknown> | undefined;
  /** A failed import's bad lines (design §15.3: `details` is then this list, the first 100). */
  readonly lines: { line: number; reason: string }[] | undefined;
  /** The `request_id` of the failed request (also the `X-Request-Id` header): quote it to support. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (429, some 503s), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown> | undefined;
    lines?: { line: number; reason: string }[] | undefined;
    requestId?: string | undefined;
    retryAfter?: number | undefined;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.lines = init.lines;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/**
 * Whether fetch failed on the network: fetch's TypeError ("fetch failed" in Node, "Failed to
 * fetch", "NetworkError…", "Load failed" in browsers, "terminated" for a body cut in Node), not
 * one thrown before anything was sent (a bad header value) nor any error of a custom fetch.
 */
export function isNetworkFailure(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  const code = (err as { cause?: { code?: unknown } }).cause?.code;
  return (
    typeof code === 'string' || /^(fetch failed|Failed to fetch|NetworkError|Load failed|terminated)/.test(err.message)
  );
}

/**
 * No answer: the service was not reached (status 0), or the connection broke while its answer
 * was read (the answer's status). Code `NETWORK_ERROR`, fetch's error kept as `cause`, so that
 * one class stands for every failure of a call. Whether the request had any effect is unknown.
 */
export function networkError(baseUrl: string, err: unknown, status = 0): SnapgraphError {
  // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, "bad port", …).
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string'
        ? cause.message
        : err instanceof Error
          ? err.message
          : String(err);
  return new SnapgraphError({
    status,
    code: 'NETWORK_ERROR',
    message:
      status === 0
        ? `the service at ${baseUrl} could not be reached (${why})`
        : `the answer from ${baseUrl} (${status}) was cut off (${why})`,
    cause: err,
  });
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; details?: unknown };
  request_id?: unknown;
  retry_after?: unknown;
}

/** The error a failed response stands for; works on any body, ours or not. */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: { get(name: string): string | null },
  retryAfterSeconds: number | undefined,
): SnapgraphError {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const error = parsed.error ?? {};
  const details =
    typeof error.details === 'object' && error.details !== null && !Array.isArray(error.details)
      ? (error.details as Record<string, unknown>)
      : undefined;
  return new SnapgraphError({
    status,
    code: typeof error.code === 'string' ? error.code : `HTTP_${status}`,
    message:
      typeof error.message === 'string'
        ? error.message
        : `the service answered ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`,
    details,
    lines: Array.isArray(error.details) ? (error.details as { line: number; reason: string }[]) : undefined,
    requestId: typeof parsed.request_id === 'string' ? parsed.request_id : (headers.get('x-request-id') ?? undefined),
    // Without a Retry-After header (a proxy may drop it), the body's own `retry_after`.
    retryAfter: retryAfterSeconds ?? wholeSeconds(details?.retry_after) ?? wholeSeconds(parsed.retry_after),
  });
}

const wholeSeconds = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.ceil(value) : undefined;

/** Design §4.2's codes and their statuses: a failed job keeps the error body, not the status. */
const STATUS_OF_CODE: Record<string, number> = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  PROVIDER_ERROR: 502,
  PROVIDER_UNAVAILABLE: 503,
};

/** The error a failed job stands for: what the synchronous request would have thrown. */
export function errorFromJob(jobError: unknown): SnapgraphError {
  const code = (jobError as ErrorBody | null)?.error?.code;
  const status = typeof code === 'string' ? (STATUS_OF_CODE[code] ?? 500) : 500;
  return errorFromResponse(status, jobError, { get: () => null }, undefined);
}
