import { KEY_MAX_LENGTH } from '../../domain/idempotency/index.js';
import { ERROR_RESPONSES, isErrorStatus, type ErrorResponseSpec } from './error-responses.js';
import {
  EVERY_AUTHENTICATED_RESPONSE,
  EVERY_RESPONSE,
  HEADER_COMPONENTS,
  headerComponentName,
  headerRef,
  type HeaderName,
} from './headers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- an OpenAPI document is walked as plain JSON */
type Json = any;

const SCHEMAS = '#/components/schemas/';
/** Marks a body schema whose request may have no body at all (see optionalBody in schemas/responses.ts). */
export const OPTIONAL_BODY = 'x-optional-body';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Keywords that describe a schema without changing what it accepts. */
const ANNOTATIONS = new Set(['description', 'examples', 'example']);

/**
 * The document @fastify/swagger builds from the routes, finished in the three ways it cannot do
 * by itself:
 * - every schema with a `title` (Snapshot, Edge, Error, …) becomes one named component, referred
 *   to wherever it is used, instead of a copy at each use;
 * - every error response an operation declares (`errorResponses(400, 404)`) refers to the one
 *   response component of its status, with its codes, headers and examples;
 * - every response lists its headers as references to header components: the request id on all,
 *   the rate-limit window on those of operations that need a key, and the ones a route declared.
 */
export function finishDocument(document: Json): Json {
  const named = new NamedSchemas(document.components?.schemas ?? {});
  const usedErrors = new Set<string>();
  for (const [method, operation] of operationsOf(document)) {
    const authenticated = !Array.isArray(operation.security) || operation.security.length > 0;
    for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
      for (const mediaType of Object.values<Json>(response.content ?? {})) {
        mediaType.schema = named.hoist(mediaType.schema);
      }
      if (isErrorStatus(status) && jsonSchemaOf(response)?.$ref === `${SCHEMAS}Error`) {
        operation.responses[status] = { $ref: `#/components/responses/${errorSpec(status).name}` };
        usedErrors.add(status);
        continue;
      }
      response.headers = responseHeaders(response.headers, authenticated);
    }
    operation.parameters = [...(operation.parameters ?? []), ...requestHeaders(operation, method, authenticated)];
    for (const parameter of operation.parameters) parameter.schema = named.hoist(parameter.schema);
    for (const mediaType of Object.values<Json>(operation.requestBody?.content ?? {})) {
      // A route whose body may be left out says so on its schema (optionalBody); generators
      // would otherwise require one.
      if (mediaType.schema?.[OPTIONAL_BODY]) {
        operation.requestBody.required = false;
        mediaType.schema = { ...mediaType.schema };
        delete mediaType.schema[OPTIONAL_BODY];
      }
      mediaType.schema = named.hoist(mediaType.schema);
    }
  }
  return {
    ...document,
    components: {
      ...document.components,
      schemas: named.components(),
      // The error responses in use, and 405, which any path answers for a method it does not
      // serve and no operation can declare.
      responses: errorResponseComponents(new Set([...usedErrors, '405'])),
      headers: HEADER_COMPONENTS,
    },
  };
}

function operationsOf(document: Json): [string, Json][] {
  return Object.values<Json>(document.paths ?? {}).flatMap((item) =>
    METHODS.filter((method) => item[method]).map((method): [string, Json] => [method, item[method]]),
  );
}

/**
 * The request headers the routes read but do not declare (they are read by hooks, not by each
 * route's schema), so that generated clients can send them as typed parameters:
 * `Idempotency-Key` on every POST that needs a key (design §14.3), and `Prefer` on those that
 * answer at once or, asked to, as a job (their 202).
 */
function requestHeaders(operation: Json, method: string, authenticated: boolean): Json[] {
  if (method !== 'post' || !authenticated) return [];
  const headers: Json[] = [
    {
      in: 'header',
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any 1–255 printable ASCII characters: the same key and body within 24 hours answers the first response again (status and body) without doing the work twice; the same key with another body is a 409.',
      schema: { type: 'string', minLength: 1, maxLength: KEY_MAX_LENGTH },
    },
  ];
  const either = operation.responses?.['202'] && (operation.responses['200'] || operation.responses['201']);
  if (either) {
    headers.push({
      in: 'header',
      name: 'Prefer',
      required: false,
      description: '`respond-async` runs the request as a job: 202 with the job, and `Location: /v1/jobs/…`.',
      schema: { type: 'string', examples: ['respond-async'] },
    });
  }
  return headers;
}

const jsonSchemaOf = (response: Json): Json => response.content?.['application/json']?.schema;
const errorSpec = (status: string): ErrorResponseSpec =>
  ERROR_RESPONSES[Number(status) as keyof typeof ERROR_RESPONSES];

function responseHeaders(declared: Record<string, Json> | undefined, authenticated: boolean): Record<string, Json> {
  const names: HeaderName[] = [...EVERY_RESPONSE, ...(authenticated ? EVERY_AUTHENTICATED_RESPONSE : [])];
  const headers: Record<string, Json> = Object.fromEntries(names.map((name) => [name, headerRef(name)]));
  for (const [name, header] of Object.entries(declared ?? {})) {
    const component = headerComponentName(name);
    headers[component ?? name] = component ? headerRef(component) : header;
  }
  return headers;
}

function errorResponseComponents(statuses: Set<string>): Record<string, Json> {
  return Object.fromEntries(
    Object.entries<ErrorResponseSpec>(ERROR_RESPONSES)
      .filter(([status]) => statuses.has(status))
      .map(([status, spec]) => {
        const headers = [...EVERY_RESPONSE, ...EVERY_AUTHENTICATED_RESPONSE, ...spec.headers];
        const examples = Object.fromEntries(
          Object.entries(spec.examples).map(([name, error]) => [
            name,
            {
              summary: `${status} ${error.code}`,
              value: {
                error,
                request_id: 'req_3kTq9ZcD000042',
                ...(typeof error.details?.retry_after === 'number' ? { retry_after: error.details.retry_after } : {}),
              },
            },
          ]),
        );
        return [
          spec.name,
          {
            description: spec.description,
            headers: Object.fromEntries(headers.map((name) => [name, headerRef(name)])),
            content: { 'application/json': { schema: { $ref: `${SCHEMAS}Error` }, examples } },
          },
        ];
      }),
  );
}

/** The named schemas of the document, gathered from the copies @fastify/swagger left at each use. */
class NamedSchemas {
  private readonly schemas = new Map<string, Json>();

  constructor(existing: Record<string, Json>) {
    for (const [name, schema] of Object.entries(existing)) this.schemas.set(name, this.hoistInside(schema));
  }

  /**
   * The schema with every titled schema in it, itself included, replaced by a reference. Copies
   * differ only in annotations @fastify/swagger moved elsewhere (a parameter's description, a
   * body's example): the fullest copy is kept.
   */
  hoist(schema: Json): Json {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
    const inner = this.hoistInside(schema);
    const name = inner.title;
    if (typeof name !== 'string') return inner;
    const known = this.schemas.get(name);
    if (known !== undefined) sameSchema(name, known, inner);
    if (known === undefined || JSON.stringify(inner).length > JSON.stringify(known).length) {
      this.schemas.set(name, inner);
    }
    return { $ref: `${SCHEMAS}${name}` };
  }

  components(): Record<string, Json> {
    return Object.fromEntries([...this.schemas].sort(([a], [b]) => a.localeCompare(b)));
  }

  private hoistInside(schema: Json): Json {
    if (Array.isArray(schema)) return schema.map((item) => this.hoist(item));
    if (typeof schema !== 'object' || schema === null) return schema;
    const copy: Json = {};
    for (const [key, value] of Object.entries<Json>(schema)) {
      copy[key] = SUBSCHEMA_HOLDERS.has(key) ? this.hoistEach(key, value) : value;
    }
    return copy;
  }

  private hoistEach(key: string, value: Json): Json {
    if (Array.isArray(value)) return value.map((item) => this.hoist(item));
    if (MAPS_OF_SCHEMAS.has(key) && typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries<Json>(value).map(([name, item]) => [name, this.hoist(item)]));
    }
    return this.hoist(value);
  }
}

const MAPS_OF_SCHEMAS = new Set(['properties', 'patternProperties', '$defs']);
const SUBSCHEMA_HOLDERS = new Set([
  ...MAPS_OF_SCHEMAS,
  'items',
  'prefixItems',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
]);

/**
 * Two different schemas under one title would make one of them wrong in the document: a
 * mistake of the route author, refused when the document is built.
 */
function sameSchema(name: string, a: Json, b: Json): void {
  if (JSON.stringify(withoutAnnotations(a)) !== JSON.stringify(withoutAnnotations(b))) {
    throw new Error(`two different schemas are titled ${name}: give one of them another title`);
  }
}

function withoutAnnotations(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries<Json>(schema)
      .filter(([key]) => !ANNOTATIONS.has(key))
      .map(([key, value]) => [key, withoutAnnotations(value)]),
  );
}
