import { Type, type TSchema } from 'typebox';
import { TRIMMED_LENGTH } from '../validation.js';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Text whose length is counted after trimming (the server stores it trimmed). */
export const TrimmedText = (min: number, max: number, description: string) =>
  Type.String({ [TRIMMED_LENGTH]: { min, max }, description });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const Unit = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const IdParams = Type.Object({ id: Type.String({ minLength: 1 }) });

/** Read-only fields accepted on update so that GET → change → PUT works; checked against the stored value. */
export const ReadOnly = (description: string) =>
  Type.Optional(Type.Unknown({ description: `${description}. Read-only: accepted only unchanged.` }));

export const PageLimit = (max: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: 50, description: `Page size, 1 to ${max}` });

// Bounded so that every accepted offset is an exact integer the databases take (2^63 and up
// reached SQLite as a REAL and failed there).
export const PageOffset = Type.Integer({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  default: 0,
  description: 'Number of items to skip',
});

export const PageCursor = Type.Optional(
  Type.String({
    maxLength: 200,
    description:
      'Extension: keyset pagination. Empty for the first page, then the next_cursor of the previous page; costs the same at any depth. Not combinable with offset.',
  }),
);

export const NextCursor = Type.Optional(
  Nullable(
    Type.String({
      description:
        'Extension, present when the request used cursor: the cursor of the next page, or null after the last page',
    }),
  ),
);

export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Upper-case error code, e.g. BAD_REQUEST, NOT_FOUND, CONFLICT' }),
      message: Type.String(),
      details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
    request_id: Type.String(),
    retry_after: Type.Optional(
      Type.Integer({
        description: 'On 429 and on 503 PROVIDER_UNAVAILABLE when known: seconds to wait, equal to Retry-After',
      }),
    ),
  },
  { $id: 'Error', description: 'The body of every error response' },
);

/** Every route's responses: its success schemas plus the shared error body for every failure. */
export function responses<T extends Record<number, TSchema>>(success: T) {
  return { ...success, '4xx': ErrorSchema, '5xx': ErrorSchema };
}
