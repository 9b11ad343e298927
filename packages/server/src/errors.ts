/**
 * The one error type of Snapgraph and the table from its codes to HTTP statuses.
 *
 * It lives below both the domain and the store so that the store can translate driver
 * failures (a UNIQUE violation, a foreign key that points nowhere) into the same errors the
 * domain raises, and no layer above ever sees a database error.
 */

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  /** An LLM or embeddings provider answered with a refusal or something unusable (design §10.3). */
  PROVIDER_ERROR: 502,
  /** An LLM or embeddings provider timed out, could not be reached, or asked us to wait (design §10.3). */
  PROVIDER_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldProblem {
  field: string;
  reason: string;
}

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A 400 naming every problem found, the first one also as `field`/`reason`. */
export function validationError(problems: FieldProblem[]): AppError {
  const [first] = problems;
  if (!first) return new AppError('BAD_REQUEST', 'invalid request');
  return new AppError('BAD_REQUEST', `${first.field} ${first.reason}`, {
    field: first.field,
    reason: first.reason,
    errors: problems,
  });
}

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string): AppError => new AppError('CONFLICT', message);
export const unprocessable = (message: string): AppError => new AppError('UNPROCESSABLE', message);
