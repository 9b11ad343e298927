import { Type, type TObject, type TSchema } from 'typebox';
import { SNAPSHOT_LIMITS } from '../../domain/snapshots/index.js';
import { TRIMMED_LENGTH } from '../plugins/validation.js';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Text whose length is counted after trimming (the server stores it trimmed). `minLength` and
 * `maxLength` tell the document's readers the same bounds; the validator leaves them to the
 * trimmed rule, which also admits a value padded beyond `maxLength` (validation.ts).
 */
export const TrimmedText = (min: number, max: number, description: string, examples?: string[]) =>
  Type.String({
    minLength: min,
    maxLength: max,
    [TRIMMED_LENGTH]: { min, max },
    description,
    ...(examples ? { examples } : {}),
  });

/** The `tag` filter of a list or a search: one tag, matched as stored (`what`: "snapshots"…). */
export const TagFilter = (what: string) =>
  Type.Optional(
    TrimmedText(1, SNAPSHOT_LIMITS.tag, `Only ${what} with this tag (trimmed, as stored tags are)`, ['habits']),
  );

/**
 * A query parameter a client may leave out: optional in the document, and always there after
 * validation, which fills in its `default` (Ajv's useDefaults). Typed as present, so handlers
 * and the domain need no fallback of their own.
 */
export const Defaulted = <T extends TSchema>(schema: T): T => Type.Optional(schema) as unknown as T;

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const Unit = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, description: 'The object’s id' }) });

/** The `:id` of a route, described for the object it names, e.g. `IdParamsOf('snapshot', 'snap_…')`. */
export const IdParamsOf = (what: string, example: string) =>
  Type.Object({ id: Type.String({ minLength: 1, description: `The ${what}’s id`, examples: [example] }) });

/** Read-only fields accepted on update so that GET → change → PUT works; checked against the stored value. */
export const ReadOnly = (description: string) =>
  Type.Optional(Type.Unknown({ description: `${description}. Read-only: accepted only unchanged.` }));

export const PageLimit = (max: number, fallback = 50) =>
  Defaulted(
    Type.Integer({
      minimum: 1,
      maximum: max,
      default: fallback,
      description: `Page size, 1 to ${max} (default ${fallback})`,
    }),
  );

// Bounded so that every accepted offset is an exact integer the databases take (2^63 and up
// reached SQLite as a REAL and failed there).
export const PageOffset = Defaulted(
  Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 0,
    description: 'Number of items to skip (default 0)',
  }),
);

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

// Kept here for the routes written against it: the helpers live in responses.ts.
export { errorResponses, responses } from './responses.js';
export { ErrorSchema } from './error.js';

/** A search body's `limit`: 1–100, 10 when left out. No `default` keyword: generated clients would then require it in the body (the route fills in 10). */
export const SearchBodyLimit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100, description: '1 to 100 (default 10)' }),
);

/**
 * A page of a list read with `limit` and `offset` or `cursor`: the items, `count` (described by
 * `count`: every match, not the page size) and `next_cursor`.
 */
export const CursorPage = <T extends TSchema>(
  item: T,
  count: string,
  options: { title: string; description: string },
) =>
  Type.Object(
    { data: Type.Array(item), count: Type.Integer({ description: count }), next_cursor: NextCursor },
    options,
  );

/**
 * The answer of a search ranked by text alone (knowledge entries, memories): the items, best
 * first, each with `score` and `similarity` as snapshot search gives them, `count` and `query`.
 */
export const TextSearchResults = <T extends TObject>(item: T, what: string, title: string) =>
  Type.Object(
    {
      data: Type.Array(
        Type.Object({
          ...item.properties,
          score: Unit('Relevance, 0 to 1, higher is better; the best match scores 0.95'),
          similarity: Type.String({ description: 'The score with exactly 4 decimals' }),
        }),
      ),
      count: Type.Integer({ description: `Number of all matching ${what}` }),
      query: Type.String({ description: 'The trimmed query' }),
    },
    { title, description: `Matching ${what}, best first` },
  );
