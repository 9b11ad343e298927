import { Type } from 'typebox';
import { EdgeTypeSchema } from './edge.js';
import { Defaulted, Nullable, PageLimit, TagFilter, TrimmedText } from './common.js';
import { SNAPSHOT_EXAMPLE } from './examples.js';
import { SnapshotSchema, SnapshotTypeSchema } from './snapshot.js';

export const SEARCH_QUERY_MAX = 500;

/**
 * How deep search pages reach: its first 10,000 results (offset at most 9,900, limit at most
 * 100). Each page ranks every candidate up to offset + limit, so an unbounded offset made one
 * request rank a whole brain on the event loop (about 1 s at 20,000 matches); a public search API
 * bounds the window alike, and the list (GET /v1/snapshots, with its cursor) reads a whole brain.
 */
export const SEARCH_OFFSET_MAX = 9_900;

const SearchOffset = Defaulted(
  Type.Integer({
    minimum: 0,
    maximum: SEARCH_OFFSET_MAX,
    default: 0,
    description: `Number of results to skip (default 0, at most ${SEARCH_OFFSET_MAX}: search reaches its first 10,000 results)`,
  }),
);

const Flag = (description: string, fallback: boolean) => Defaulted(Type.Boolean({ default: fallback, description }));

export const SearchQuery = Type.Object({
  q: TrimmedText(
    1,
    SEARCH_QUERY_MAX,
    'Words to find (stemmed; stop words match nothing); "a phrase" in quotes; word* for a prefix',
    ['compounding habits'],
  ),
  limit: PageLimit(100, 10),
  offset: SearchOffset,
  brain_id: Type.Optional(Type.String({ minLength: 1, description: "Brain to search; default: the key's brain" })),
  type: Type.Optional(SnapshotTypeSchema),
  tag: TagFilter('snapshots'),
  graph: Flag('Let edges influence the ranking (default true); false ranks the same matches by text alone', true),
  explain: Flag("Add each result's score parts and the edges that moved it (default false)", false),
});

const Contradiction = Type.Object(
  {
    snapshot_id: Type.String(),
    name: Type.String(),
    edge_id: Type.String(),
    strength: Type.Number(),
  },
  { title: 'Contradiction' },
);

const Explanation = Type.Object(
  {
    method: Type.String({ description: 'text, text+graph, text+semantic or text+semantic+graph' }),
    text: Type.Number({ description: 'Text relevance, relative to the best match of the query (0 to 1)' }),
    semantic: Nullable(Type.Number({ description: 'Cosine similarity of meaning, or null without embeddings' })),
    graph: Nullable(Type.Number({ description: 'The graph part (0 to 1), or null with graph=false' })),
    edges: Type.Array(
      Type.Object({
        edge_id: Type.String(),
        edge_type: EdgeTypeSchema,
        snapshot_id: Type.String({ description: 'The matching snapshot at the other end' }),
        direction: Type.Enum(['incoming', 'outgoing']),
        strength: Type.Number(),
        contribution: Type.Number(),
      }),
      { description: 'The edges that moved this result, strongest push first' },
    ),
    vector_index: Type.Enum(['exact', 'hnsw'], {
      description:
        'How the nearest by meaning were found: every vector compared, or the approximate (HNSW) index of a large brain',
    }),
    note: Type.Optional(Type.String()),
  },
  { title: 'Explanation', description: 'With explain=true: how the score was made (docs/ranking.md)' },
);

export const SearchResultSchema = Type.Object(
  {
    ...SnapshotSchema.properties,
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Relevance, 0 to 1, higher is better' }),
    similarity: Type.String({ description: 'The score with exactly 4 decimals, e.g. "0.9230"' }),
    contradicted_by: Type.Array(Contradiction, {
      description: 'Up to 3 of the strongest contradicts edges touching the result, either direction',
    }),
    explain: Type.Optional(Explanation),
  },
  {
    title: 'SearchResult',
    description: 'A snapshot with its score',
    examples: [{ ...SNAPSHOT_EXAMPLE, score: 0.9512, similarity: '0.9512', contradicted_by: [] }],
  },
);

export const SearchEnvelope = Type.Object(
  {
    data: Type.Array(SearchResultSchema),
    count: Type.Integer({ description: 'Number of all results over every page' }),
    query: Type.String({ description: 'The query as searched (trimmed)' }),
  },
  { title: 'SearchResults', description: 'A page of results, best first' },
);
