import type { TSchema } from 'typebox';
import { ERROR_RESPONSES, type ErrorStatus } from '../openapi/error-responses.js';
import { OPTIONAL_BODY } from '../openapi/finish-document.js';
import { HEADER_COMPONENTS, type HeaderName } from '../openapi/headers.js';
import { ErrorSchema } from './error.js';

/**
 * What every operation that needs a key can answer, whatever it does: no valid key, the rate
 * limit, a failure of ours, and an instance shutting down.
 */
export const EVERY_OPERATION_ERRORS = [401, 429, 500, 503] as const satisfies readonly ErrorStatus[];

/**
 * The error responses a route can answer, each with the shared `Error` body: spread into a
 * route's `response` next to its successes, e.g. `{ 200: EdgeEnvelope, ...errorResponses(400, 404) }`.
 * The document refers to one response component per status (openapi/error-responses.ts), with
 * its codes, headers and examples. The statuses of EVERY_OPERATION_ERRORS are always included.
 */
export function errorResponses(...statuses: ErrorStatus[]): Partial<Record<ErrorStatus, typeof ErrorSchema>> {
  const all = new Set<ErrorStatus>([...statuses, ...EVERY_OPERATION_ERRORS]);
  return Object.fromEntries([...all].sort().map((status) => [status, ErrorSchema]));
}

/**
 * Every route's responses: its successes and the error statuses it can answer (always those of
 * EVERY_OPERATION_ERRORS), e.g. `responses({ 201: EdgeEnvelope }, 400, 404, 409, 413, 415, 422)`.
 *
 * Without statuses it declares only the ranges 4XX and 5XX, which the document test refuses
 * (test/http/openapi-document.test.ts): a client generator then knows neither which errors to
 * expect nor their headers. Name them.
 */
export function responses<T extends Record<number, TSchema>>(success: T, ...errorStatuses: ErrorStatus[]) {
  if (errorStatuses.length === 0) return { ...success, '4xx': ErrorSchema, '5xx': ErrorSchema };
  return { ...success, ...errorResponses(...errorStatuses) };
}

/**
 * A success response with headers particular to it (the headers of every response are added to
 * every operation by the document, see openapi/headers.ts). Adds nothing to what is sent.
 */
export function withHeaders<T extends TSchema>(schema: T, ...names: HeaderName[]): T {
  const headers = Object.fromEntries(names.map((name) => [name, HEADER_COMPONENTS[name].schema]));
  return { ...schema, headers };
}

/** The response's description in the document, when the schema's own does not fit this status. */
export function describedAs<T extends TSchema>(schema: T, description: string): T {
  return { ...schema, 'x-response-description': description };
}

/** A 201's body: `Location` names the new object (sendCreated, created.ts). */
export const created = <T extends TSchema>(schema: T): T =>
  describedAs(withHeaders(schema, 'Location'), 'Created; `Location` names the new object');

export { ERROR_RESPONSES };

/**
 * A body the request may leave out (the route treats no body as `{}`): the document then says
 * `requestBody.required: false`. Adds nothing to validation.
 */
export const optionalBody = <T extends TSchema>(schema: T): T => ({ ...schema, [OPTIONAL_BODY]: true });

/**
 * A route's preValidation hook for an optionalBody: no body is validated as `{}`. A body of JSON
 * `null` is a body, and is refused as any other body that is not an object.
 */
export const noBodyIsEmpty = async (request: { body: unknown }): Promise<void> => {
  if (request.body === undefined) request.body = {};
};
