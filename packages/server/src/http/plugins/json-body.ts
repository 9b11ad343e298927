import { errorCodes, type FastifyInstance } from 'fastify';
import { AppError, validationError } from '../../errors.js';
import { MAX_NESTING, tooDeep } from '../../domain/nesting.js';
import { NUL_REASON, nulPath } from '../../domain/nul-text.js';
import { SURROGATE_REASON, unpairedSurrogatePath } from '../../domain/unpaired-surrogate.js';

/**
 * JSON bodies through Fastify's own safe parser (prototype poisoning refused), except that an
 * empty body is "no body": a DELETE sent with a JSON content type and nothing after it is
 * fine, and a POST or PUT without a body fails validation with a clear message instead.
 * `refuseNul`: the store cannot keep U+0000 (domain/nul-text.ts), so a body holding it anywhere
 * is a 400 naming the field, and so is a query parameter holding it (a path segment: a 404).
 * A lone UTF-16 surrogate in any string or key of the body is a 400 naming the field on every store.
 */
export function registerJsonBody(app: FastifyInstance, options: { refuseNul: boolean }): void {
  // A body too large is a 413 whatever its type (design §3.7's order: 413 before 415): Fastify
  // refuses a type it has no parser for before it reads the length. Checked after the key and
  // the rate limit (onRequest), from Content-Length; a chunked body is measured as it is read.
  // Fastify's own error, so that the error handler words it as it words Fastify's 413.
  const appLimit = app.initialConfig.bodyLimit ?? Infinity;
  app.addHook('preParsing', (request, _reply, payload, done) => {
    // A route may take more (POST /v1/brains/import: IMPORT_MAX_BYTES).
    const limit = request.routeOptions.bodyLimit ?? appLimit;
    const length = request.headers['content-length'];
    if (length !== undefined && Number(length) > limit) done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    else done(null, payload);
  });
  if (options.refuseNul) {
    app.addHook('preValidation', (request, _reply, done) => {
      // An id holding it names nothing here, as on SQLite: a 404.
      if (nulPath(request.params) !== undefined) return done(new AppError('NOT_FOUND', 'not found'));
      const nul = nulPath(request.query);
      done(nul === undefined ? undefined : validationError([{ field: nul, reason: NUL_REASON }]));
    });
  }
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (err, value) => {
      const deep = err ? undefined : tooDeep(value);
      if (deep !== undefined) {
        // Before validation, whose size checks and serializers recurse.
        return done(validationError([{ field: deep, reason: `is nested more than ${MAX_NESTING} levels deep` }]));
      }
      const nul = options.refuseNul && !err ? nulPath(value) : undefined;
      if (nul !== undefined) return done(validationError([{ field: nul, reason: NUL_REASON }]));
      const lone = err ? undefined : unpairedSurrogatePath(value);
      if (lone !== undefined) return done(validationError([{ field: lone, reason: SURROGATE_REASON }]));
      const key = err ? forbiddenKey(text) : undefined;
      if (key === undefined) return done(err, value);
      // Valid JSON, refused for a key that reaches an object's prototype: name the field, as
      // for any other field that is not allowed, rather than call the JSON malformed.
      done(validationError([{ field: key, reason: 'is not allowed as a field name, at any depth' }]), undefined);
    });
  });
}

/** The key for which well-formed JSON was refused (`__proto__`, or `constructor` with a `prototype`). */
function forbiddenKey(text: string): string | undefined {
  let found: string | undefined;
  try {
    JSON.parse(text, (key, value: unknown) => {
      const poisons =
        key === '__proto__' ||
        (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype'));
      if (poisons) found ??= key;
      return value;
    });
  } catch {
    return undefined; // malformed after all
  }
  return found;
}
