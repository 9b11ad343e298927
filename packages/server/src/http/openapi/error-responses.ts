import type { ErrorCode } from '../../errors.js';
import type { HeaderName } from './headers.js';

/**
 * The error responses an operation can declare, one reusable response component per status,
 * each with the codes that status carries, the headers it adds and an example. Routes name the
 * statuses they can answer (`errorResponses(400, 404)` in schemas/responses.ts); the document
 * then refers to these components instead of repeating them.
 */
export interface ErrorResponseSpec {
  /** The component's name under #/components/responses. */
  name: string;
  description: string;
  /** The header components (headers.ts) this response adds to the ones every response has. */
  headers: readonly HeaderName[];
  examples: Record<string, { code: ErrorCode; message: string; details?: Record<string, unknown> }>;
}

export const ERROR_RESPONSES = {
  400: {
    name: 'BadRequest',
    description:
      'The request is invalid: BAD_REQUEST names every problem in `details` (a missing, unknown, read-only or out-of-range field); INVALID_JSON for a body that is not JSON',
    headers: [],
    examples: {
      validation: {
        code: 'BAD_REQUEST',
        message: 'strength must be <= 1',
        details: { field: 'strength', reason: 'must be <= 1', errors: [{ field: 'strength', reason: 'must be <= 1' }] },
      },
      invalidJson: { code: 'INVALID_JSON', message: 'request body is not valid JSON' },
    },
  },
  401: {
    name: 'Unauthorized',
    description: 'No key, or a malformed, unknown or revoked one',
    headers: ['WWW-Authenticate'],
    examples: { unauthorized: { code: 'UNAUTHORIZED', message: 'invalid API key' } },
  },
  404: {
    name: 'NotFound',
    description: 'No such object: another account’s objects are not found either',
    headers: [],
    examples: { notFound: { code: 'NOT_FOUND', message: 'snapshot not found' } },
  },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path exists, but not with this method; `Allow` lists the methods it serves',
    headers: ['Allow'],
    examples: {
      methodNotAllowed: { code: 'METHOD_NOT_ALLOWED', message: 'PATCH is not allowed here; allowed: DELETE, GET, PUT' },
    },
  },
  409: {
    name: 'Conflict',
    description: 'An edge of this type already joins these snapshots (`B related_to A` duplicates `A related_to B`)',
    headers: [],
    examples: {
      conflict: { code: 'CONFLICT', message: 'an edge of this edge_type already exists between these snapshots' },
    },
  },
  413: {
    name: 'PayloadTooLarge',
    description: 'The request body is larger than 1 MiB',
    headers: [],
    examples: { tooLarge: { code: 'PAYLOAD_TOO_LARGE', message: 'request body is larger than 1 MiB' } },
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The request body is not `application/json`',
    headers: [],
    examples: {
      unsupported: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'request body must be application/json' },
    },
  },
  422: {
    name: 'Unprocessable',
    description: 'Well-formed but impossible: an edge across two brains, or from a snapshot to itself',
    headers: [],
    examples: {
      unprocessable: { code: 'UNPROCESSABLE', message: 'the two snapshots do not belong to the same brain' },
    },
  },
  429: {
    name: 'RateLimited',
    description:
      'Too many requests for this key and group (or, without a valid key, from this address): wait `Retry-After` seconds, then retry',
    headers: ['Retry-After'],
    examples: {
      rateLimited: {
        code: 'RATE_LIMITED',
        message: 'rate limit exceeded for snapshots_read: retry in 2 s',
        details: { retry_after: 2, limit: 60, burst: 10, scope: 'snapshots_read' },
      },
    },
  },
  500: {
    name: 'Internal',
    description: 'A failure on our side; never with a stack trace. Quote `request_id` when you report it',
    headers: [],
    examples: { internal: { code: 'INTERNAL', message: 'internal server error' } },
  },
  502: {
    name: 'ProviderError',
    description: 'The LLM or embedding provider answered with a refusal or something unusable',
    headers: [],
    examples: {
      providerError: {
        code: 'PROVIDER_ERROR',
        message: 'the llm provider returned an error',
        details: { provider: 'llm' },
      },
    },
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'SERVICE_UNAVAILABLE: this instance is shutting down, retry (on another instance); or, on routes that work on text, every compute thread is busy and the queue is full, or the text took longer than COMPUTE_TIMEOUT_MS (with `Retry-After`). PROVIDER_UNAVAILABLE: the LLM or embedding provider did not answer, with `Retry-After` when it said how long to wait',
    headers: ['Retry-After'],
    examples: {
      shuttingDown: { code: 'SERVICE_UNAVAILABLE', message: 'the server is shutting down; try again' },
      computeBusy: {
        code: 'SERVICE_UNAVAILABLE',
        message: 'the server is busy with other text work; try again shortly',
        details: { retry_after: 2 },
      },
      providerUnavailable: {
        code: 'PROVIDER_UNAVAILABLE',
        message: 'the llm provider is unavailable; retry later',
        details: { provider: 'llm', retry_after: 5 },
      },
    },
  },
} as const satisfies Record<number, ErrorResponseSpec>;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

export const isErrorStatus = (status: string): boolean => Object.hasOwn(ERROR_RESPONSES, status);
