import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { INSTANT_REASON, parseInstant } from '../../domain/memories/fields.js';
import { WINDOW_EDGE_REASON, windowEdge } from '../../domain/memories/window.js';
import { characterLength } from '../../domain/validate.js';
import type { FieldProblem } from '../../errors.js';

// ajv-formats is CommonJS; under ESM its plugin is the `default` property of the module.
const addFormats = addFormatsModule.default;

export const TRIMMED_LENGTH = 'x-trimmed-length';
export const MAX_JSON_BYTES = 'x-max-json-bytes';
/** A time: `instant` (ISO 8601 with a zone), or a memory window's `since`/`until` (a day too). */
export const TIME = 'x-time';
export type TimeKind = 'instant' | 'since' | 'until';

const shared: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, verbose: true };

/**
 * Bodies are validated strictly: no type coercion and no silently dropped fields (Fastify's
 * defaults do both). Query strings and path parameters arrive as text, so numbers there are
 * coerced — and `limit=1.5` or `limit=abc` still fails, as an integer check.
 */
const bodyValidator = withSnapgraphKeywords(addFormats(new Ajv({ ...shared, coerceTypes: false })));
const textValidator = withSnapgraphKeywords(addFormats(new Ajv({ ...shared, coerceTypes: true })));

/**
 * Three rules JSON Schema cannot state: a length measured after trimming, the size of a value as
 * JSON, and a time that names a real instant. As keywords they fail alongside every other
 * problem, so one 400 lists all.
 * (The domain enforces the same limits for callers that do not come through HTTP.)
 */
function withSnapgraphKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: TRIMMED_LENGTH,
    type: 'string',
    schemaType: 'object',
    validate: (limits: { min: number; max: number }, data: string) => {
      const length = characterLength(data.trim());
      return length >= limits.min && length <= limits.max;
    },
  });
  ajv.addKeyword({
    keyword: MAX_JSON_BYTES,
    schemaType: 'number',
    validate: (max: number, data: unknown) => data === null || Buffer.byteLength(JSON.stringify(data)) <= max,
  });
  ajv.addKeyword({
    keyword: TIME,
    type: 'string',
    schemaType: 'string',
    validate: (kind: TimeKind, data: string) =>
      (kind === 'instant' ? parseInstant(data) : windowEdge(data, kind)) !== undefined,
  });
  return ajv;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema: declared, httpPart }) => {
  const schema = trimmedLengthsOnly(declared) as object;
  if (httpPart === 'body') return bodyValidator.compile(schema);
  return decimalNumbersOnly(schema as SchemaWithProperties, textValidator.compile(schema));
};

/**
 * A copy of the schema without `minLength`/`maxLength` where TRIMMED_LENGTH states the bounds:
 * those are there for the document's readers, and checked on the raw text they would refuse a
 * name of 200 characters padded with spaces, which the trimmed rule admits (and report an empty
 * name twice).
 */
function trimmedLengthsOnly(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(trimmedLengthsOnly);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = trimmedLengthsOnly(value);
  if (TRIMMED_LENGTH in copy) {
    delete copy.minLength;
    delete copy.maxLength;
  }
  return copy;
}

interface SchemaWithProperties {
  properties?: Record<string, { type?: unknown }>;
}

/** A number as a query string writes it: decimal digits, an optional minus and fraction. */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Ajv coerces whatever JavaScript's `+text` reads as a number — `0x10`, `1e1`, ` 5`, `` (as
 * 0) — where a client almost certainly made a mistake. Numbers in query strings and paths are
 * held to plain decimal notation first; anything else is reported as not a number, alongside
 * every other problem of the request.
 */
function decimalNumbersOnly(schema: SchemaWithProperties, validate: ValidateFunction): ValidateFunction {
  const numeric = Object.entries(schema.properties ?? {}).filter(
    ([, property]) => property.type === 'integer' || property.type === 'number',
  );
  if (numeric.length === 0) return validate;
  const checked = ((data: Record<string, unknown>) => {
    const notDecimal: ErrorObject[] = [];
    for (const [name, property] of numeric) {
      const value = data?.[name];
      if (typeof value === 'string' && !DECIMAL.test(value)) {
        notDecimal.push({
          keyword: 'type',
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          params: { type: property.type },
          message: `must be ${String(property.type)}`,
          data: value,
        });
      }
    }
    const valid = validate(data);
    const fields = new Set(notDecimal.map((error) => error.instancePath));
    const others = (validate.errors ?? []).filter((error) => !fields.has(error.instancePath));
    checked.errors = notDecimal.length > 0 || !valid ? [...notDecimal, ...others] : null;
    return checked.errors === null;
  }) as ValidateFunction;
  return checked;
}

function fieldName(instancePath: string, child?: unknown): string {
  const path = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (typeof child === 'string') path.push(child);
  return path.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function problemOf(error: ErrorObject, readOnlyFields: ReadonlySet<string>): FieldProblem {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: fieldName(error.instancePath, params.missingProperty), reason: 'is required' };
    case 'additionalProperties': {
      const name = params.additionalProperty as string;
      const reason = readOnlyFields.has(name) ? 'is read-only and set by the service' : 'is not an allowed field';
      return { field: fieldName(error.instancePath, name), reason };
    }
    case 'enum':
      return {
        field: fieldName(error.instancePath),
        reason: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`,
      };
    case TRIMMED_LENGTH: {
      const limits = error.schema as { min: number; max: number };
      const tooShort = characterLength(String(error.data).trim()) < limits.min;
      const reason = tooShort
        ? limits.min === 1
          ? 'must not be empty'
          : `must have at least ${limits.min} characters`
        : `must have at most ${limits.max} characters`;
      return { field: fieldName(error.instancePath), reason };
    }
    case TIME:
      return {
        field: fieldName(error.instancePath),
        reason: error.schema === 'instant' ? INSTANT_REASON : WINDOW_EDGE_REASON,
      };
    case MAX_JSON_BYTES:
      return { field: fieldName(error.instancePath), reason: `must be at most ${String(error.schema)} bytes as JSON` };
    case 'minProperties':
      return { field: fieldName(error.instancePath) || 'body', reason: 'is empty: nothing to update' };
    case 'type':
      if (error.instancePath === '' && params.type === 'object') {
        return { field: 'body', reason: 'must be a JSON object' };
      }
      if (error.data === null) return { field: fieldName(error.instancePath), reason: 'must not be null' };
      return { field: fieldName(error.instancePath) || 'body', reason: `must be ${describeType(params.type)}` };
    default:
      return { field: fieldName(error.instancePath) || 'body', reason: error.message ?? 'is invalid' };
  }
}

function describeType(type: unknown): string {
  switch (type) {
    case 'object':
      return 'a JSON object';
    case 'array':
      return 'an array';
    case 'integer':
      return 'an integer';
    default:
      return `a ${String(type)}`;
  }
}

/**
 * Ajv's errors as field problems a person can act on. A nullable field that fails reports
 * each branch of its `anyOf`; only the informative branch is kept.
 */
export function problemsFromAjv(errors: ErrorObject[], readOnlyFields: ReadonlySet<string>): FieldProblem[] {
  const meaningful = errors.filter((error) => {
    if (error.keyword === 'anyOf') return false;
    if (error.keyword === 'type' && (error.params as { type?: unknown }).type === 'null') return false;
    return true;
  });
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  for (const error of meaningful.length > 0 ? meaningful : errors) {
    const problem = problemOf(error, readOnlyFields);
    const key = `${problem.field}\u0000${problem.reason}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}
