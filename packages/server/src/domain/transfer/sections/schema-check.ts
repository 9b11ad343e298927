import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';

const addFormats = addFormatsModule.default;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false }));

/**
 * A checker of one record's shape, giving reasons such as `confidence must be <= 1`. Compiled on
 * first use: the server loads the sections for export, which never checks a record.
 */
export function schemaCheck(schema: TSchema): (record: unknown) => string[] {
  let validate: ValidateFunction | undefined;
  return (record) => {
    const check = (validate ??= ajv.compile(schema));
    return check(record) ? [] : (check.errors ?? []).map(reason);
  };
}

function reason(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return `${field ? `${field}.` : ''}${extra} is not a known field`;
  }
  if (error.keyword === 'required')
    return `${(error.params as { missingProperty: string }).missingProperty} is missing`;
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.join(', ');
    return `${field} must be one of: ${allowed}`;
  }
  return `${field || 'record'} ${error.message ?? 'is not valid'}`;
}
