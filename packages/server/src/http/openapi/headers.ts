/**
 * Response headers as reusable components (#/components/headers). The plugins that set them
 * (request ids, rate limits, errors, 405s, 201s) are the truth; these say the same in the
 * document. A route declares the ones particular to it by name (`withHeaders(schema,
 * 'Location')`); the ones every response carries are added to every operation.
 */
const integer = { type: 'integer' } as const;
const text = { type: 'string' } as const;

export const HEADER_COMPONENTS = {
  'X-Request-Id': {
    description: 'The request’s id: the client’s own X-Request-Id when it sent a sane one, otherwise `req_…`',
    schema: text,
    example: 'req_3kTq9ZcD000042',
  },
  'X-RateLimit-Limit': {
    description: 'The per-minute limit of the request’s rate-limit group for this key (or address, without a key)',
    schema: { ...integer, minimum: 0 },
    example: 60,
  },
  'X-RateLimit-Remaining': {
    description: 'How many more requests the minute window admits now; 0 on a 429, never negative',
    schema: { ...integer, minimum: 0 },
    example: 59,
  },
  'X-RateLimit-Reset': {
    description: 'Unix time in seconds (rounded up) at which Remaining is back at the limit if no request is made',
    schema: { ...integer, minimum: 0 },
    example: 1795777260,
  },
  'RateLimit-Policy': {
    description: 'IETF draft: the limits of the group, per minute and per second',
    schema: text,
    example: '"minute";q=60;w=60, "second";q=10;w=1',
  },
  RateLimit: {
    description: 'IETF draft: what remains of the window, and in how many seconds it resets (on a 429: the wait)',
    schema: text,
    example: '"minute";r=59;t=60',
  },
  'Retry-After': {
    description: 'Whole seconds to wait (at least 1) before a retry is admitted; equal to the body’s `retry_after`',
    schema: { ...integer, minimum: 1 },
    example: 2,
  },
  'WWW-Authenticate': {
    description: 'How to authenticate: a bearer API key',
    schema: text,
    example: 'Bearer',
  },
  Allow: {
    description: 'The methods this path serves',
    schema: text,
    example: 'DELETE, GET, PUT',
  },
  Location: {
    description: 'The new object’s address, under the prefix it was created through (/v1 or /api/v1)',
    schema: text,
    example: '/v1/snapshots/snap_01JDQ8Z2X4M3N5P7Q9R1S3T5V7',
  },
  'Cache-Control': {
    description: 'Search results may be kept 30 seconds (design §5.8: clients may cache them 30 to 60 s)',
    schema: text,
    example: 'private, max-age=30',
  },
} as const;

export type HeaderName = keyof typeof HEADER_COMPONENTS;

/** Every response carries a request id. */
export const EVERY_RESPONSE: readonly HeaderName[] = ['X-Request-Id'];

/** And every response of an operation that needs a key carries its rate-limit window. */
export const EVERY_AUTHENTICATED_RESPONSE: readonly HeaderName[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

export const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/** The header component a declared header stands for, whatever its case (HTTP names are case-insensitive). */
export function headerComponentName(name: string): HeaderName | undefined {
  const lower = name.toLowerCase();
  return (Object.keys(HEADER_COMPONENTS) as HeaderName[]).find((known) => known.toLowerCase() === lower);
}
