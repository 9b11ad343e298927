/**
 * The JSON Schema of the settings, built and checked without TypeBox and Ajv. Every CLI command
 * reads the settings, and loading those two (1,400 module files for TypeBox, code generation
 * for Ajv) was most of its start-up time (docs/performance.md, "CLI start"). The builders are
 * spelled like TypeBox's (`Type.Integer({…})`), build the same plain JSON Schema, and are typed
 * so that `Static` gives the settings' type; `checkSettings` reads the few keywords they use the
 * way Ajv does, with Ajv's messages. The HTTP schemas, loaded only to serve, use the real ones.
 */

type Options = Record<string, unknown>;
type Schema = { readonly type?: string; readonly enum?: readonly string[] };
/** What checkSettings reads of a property's schema (and annotations, which need no check). */
const KEYWORDS = new Set(['type', 'enum', 'default', 'minimum', 'maximum', 'minLength', 'pattern']);
const ANNOTATIONS = new Set(['description', 'title', 'examples']);
interface Keywords {
  type?: string;
  enum?: readonly string[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
}

/** Marks an optional property for `Object` and `Static`; a symbol, so Ajv never sees it. */
export const OPTIONAL: unique symbol = Symbol('optional');
export type Optional = { readonly [OPTIONAL]: true };

export const Type = {
  Integer: (options: Options = {}) => ({ type: 'integer' as const, ...options }),
  String: (options: Options = {}) => ({ type: 'string' as const, ...options }),
  Boolean: (options: Options = {}) => ({ type: 'boolean' as const, ...options }),
  Enum: <const V extends string>(values: readonly V[], options: Options = {}) => ({ enum: values, ...options }),
  Optional: <S extends Schema>(schema: S) =>
    Object.defineProperty({ ...schema }, OPTIONAL, { value: true }) as S & Optional,
  Object: <P extends Record<string, Schema>>(properties: P) => ({
    type: 'object' as const,
    required: Object.keys(properties).filter((name) => !(OPTIONAL in (properties[name] as object))),
    properties,
  }),
};

type ValueOf<S> = S extends { readonly enum: readonly (infer V)[] }
  ? V
  : S extends { readonly type: 'integer' }
    ? number
    : S extends { readonly type: 'string' }
      ? string
      : S extends { readonly type: 'boolean' }
        ? boolean
        : never;

type Properties<O> = O extends { properties: infer P } ? P : never;

/** The value an object schema accepts: its optional properties optional, the rest required. */
export type Static<O extends { properties: Record<string, Schema> }> = {
  [K in keyof Properties<O> as Properties<O>[K] extends Optional ? never : K]: ValueOf<Properties<O>[K]>;
} & {
  [K in keyof Properties<O> as Properties<O>[K] extends Optional ? K : never]?: ValueOf<Properties<O>[K]>;
};

export interface SettingProblem {
  name: string;
  message: string;
}

/**
 * Checks `values` (strings, as the environment gives them) against an object schema made by
 * `Type.Object`, as Ajv does with `coerceTypes` and `useDefaults`: strings become integers and
 * booleans (`true`/`false`), missing values take their defaults, and every problem is reported.
 * `values` is changed in place; an empty result means it now matches the schema.
 */
export function checkSettings(
  schema: { required: string[]; properties: Record<string, Schema> },
  values: Record<string, unknown>,
): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const [name, property] of Object.entries(schema.properties) as [string, Keywords][]) {
    // A keyword added to a setting but not read here would be ignored without a word: refuse.
    const unread = Object.keys(property).find((keyword) => !KEYWORDS.has(keyword) && !ANNOTATIONS.has(keyword));
    if (unread !== undefined)
      throw new Error(`${name}: the schema keyword "${unread}" is not checked by checkSettings`);
    if (values[name] === undefined) {
      if ('default' in property) values[name] = property.default;
      else if (schema.required.includes(name))
        problems.push({ name, message: `must have required property '${name}'` });
      continue;
    }
    const value = coerce(values[name], property.type);
    if (value === undefined) {
      problems.push({ name, message: `must be ${property.type}` });
      continue;
    }
    values[name] = value;
    const message = keywordProblem(value, property);
    if (message !== undefined) problems.push({ name, message });
  }
  return problems;
}

function coerce(value: unknown, type: string | undefined): unknown {
  if (type === 'integer') {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return Number.isInteger(number) ? number : undefined;
  }
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    return value === 'true' ? true : value === 'false' ? false : undefined;
  }
  if (type === 'string') return typeof value === 'string' ? value : undefined;
  return value;
}

function keywordProblem(value: unknown, keywords: Keywords): string | undefined {
  if (keywords.enum && !keywords.enum.includes(value as string)) return `must be one of ${keywords.enum.join(', ')}`;
  if (typeof value === 'number') {
    if (keywords.minimum !== undefined && value < keywords.minimum) return `must be >= ${keywords.minimum}`;
    if (keywords.maximum !== undefined && value > keywords.maximum) return `must be <= ${keywords.maximum}`;
  }
  if (typeof value === 'string') {
    if (keywords.minLength !== undefined && [...value].length < keywords.minLength) {
      return `must NOT have fewer than ${keywords.minLength} characters`;
    }
    if (keywords.pattern !== undefined && !new RegExp(keywords.pattern, 'u').test(value)) {
      return `must match pattern "${keywords.pattern}"`;
    }
  }
  return undefined;
}
