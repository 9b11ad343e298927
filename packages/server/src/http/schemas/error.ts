import { Type } from 'typebox';
import { ERROR_STATUS, type ErrorCode } from '../../errors.js';

const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export const ErrorCodeSchema = Type.Enum(ERROR_CODES, {
  title: 'ErrorCode',
  description: 'What went wrong, as a stable upper-case code; the HTTP status follows from it (README, Errors)',
});

const FieldProblem = Type.Object(
  {
    field: Type.String({ description: 'The field, e.g. `strength`, `tags[2]` or `body`' }),
    reason: Type.String({ description: 'What is wrong with it, e.g. `must be <= 1`' }),
  },
  { title: 'FieldProblem' },
);

const RetryAfter = (description: string) => Type.Integer({ minimum: 1, description });

// `additionalProperties`: other codes add their own facts (a 429's limit, burst and scope; a
// provider failure's provider), and a client must not break on one it does not know.
const ErrorDetails = Type.Object(
  {
    field: Type.Optional(Type.String({ description: 'On 400 BAD_REQUEST: the first problem’s field' })),
    reason: Type.Optional(Type.String({ description: 'On 400 BAD_REQUEST: the first problem’s reason' })),
    errors: Type.Optional(Type.Array(FieldProblem, { description: 'On 400 BAD_REQUEST: every problem found' })),
    retry_after: Type.Optional(RetryAfter('On 429 and 503 PROVIDER_UNAVAILABLE when known: seconds to wait')),
  },
  { additionalProperties: true, description: 'Facts about the error; optional' },
);

/** The body of every error response (design §4.1), on every route: one named schema, referenced everywhere. */
export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: ErrorCodeSchema,
      message: Type.String({ description: 'For people: what went wrong, in words' }),
      details: Type.Optional(ErrorDetails),
    }),
    request_id: Type.String({ description: 'The X-Request-Id of the request, for support and logs' }),
    retry_after: Type.Optional(
      RetryAfter('On 429 and on 503 PROVIDER_UNAVAILABLE when known: seconds to wait, equal to Retry-After'),
    ),
  },
  {
    title: 'Error',
    description: 'The body of every error response',
    examples: [
      {
        error: {
          code: 'BAD_REQUEST',
          message: 'strength must be <= 1',
          details: {
            field: 'strength',
            reason: 'must be <= 1',
            errors: [{ field: 'strength', reason: 'must be <= 1' }],
          },
        },
        request_id: 'req_3kTq9ZcD000042',
      },
    ],
  },
);
