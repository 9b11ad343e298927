import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';

const addFormats = addFormatsModule.default;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false }));

/** A checker of one record's shape, giving reasons such as `confidence must be <= 1`. */
export function schemaCheck(schema: TSchema): (record: unknown) => string[] {
  const validate = ajv.compile(schema);
  return (record) => (validate(record) ? [] : (validate.errors ?? []).map(reason));
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
