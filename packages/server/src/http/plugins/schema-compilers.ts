import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from './validation.js';

type Serialize = (doc: unknown) => string;
type Validate = ((data: unknown) => unknown) & { errors?: unknown };

/**
 * Compilers that compile a route's validator or serializer when it is first used instead of
 * when the app starts: the same functions from the same schemas, so every answer is the same.
 * Compiling every route's schemas (ajv and fast-json-stringify) is most of what building the
 * app costs — about 4 s of CPU on a 2-core machine, in each of the test suite's ~170 processes
 * of which most call a few routes. Only the test harness asks for them (buildApp's
 * `compileSchemasOnFirstUse`); a server compiles everything at start, so that a first request
 * pays nothing and a schema that cannot compile stops the start.
 */
export const onFirstUse = {
  validatorCompiler: ((route) => {
    let compiled: Validate | undefined;
    const validate: Validate = (data) => {
      compiled ??= validatorCompiler(route) as Validate;
      const result = compiled(data);
      validate.errors = compiled.errors;
      return result;
    };
    return validate;
  }) as FastifySchemaCompiler<unknown>,

  /** For Fastify's `schemaController.compilersFactory.buildSerializer`. */
  buildSerializer: (externalSchemas?: unknown, options?: Parameters<ReturnType<typeof SerializerSelector>>[1]) => {
    const compile = SerializerSelector()(externalSchemas, options);
    return (route: Parameters<typeof compile>[0]): Serialize => {
      let compiled: Serialize | undefined;
      return (doc) => (compiled ??= compile(route))(doc);
    };
  },
};
