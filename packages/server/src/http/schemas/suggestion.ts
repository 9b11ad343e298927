import { Type } from 'typebox';
import { LINK_RULES } from '../../domain/linking/index.js';
import { PageLimit } from './common.js';
import { EdgeTypeSchema } from './edge.js';
import { SUGGESTION_EXAMPLE } from './examples.js';

export const SuggestionQuery = Type.Object({
  limit: PageLimit(50, 10),
  edge_type: Type.Optional(EdgeTypeSchema),
});

export const SuggestionSchema = Type.Object(
  {
    source_id: Type.String(),
    target_id: Type.String(),
    edge_type: EdgeTypeSchema,
    strength: Type.Number({ description: 'The strength the edge would have (its score, to two decimals)' }),
    score: Type.Number({
      description: `How sure the service is, 0 to 1; it links by itself from ${LINK_RULES.autoMinScore}`,
    }),
    reason: Type.String({ description: 'Why, in words' }),
  },
  { title: 'Suggestion', description: 'An edge the service would make', examples: [SUGGESTION_EXAMPLE] },
);

export const SuggestionListEnvelope = Type.Object(
  {
    data: Type.Array(SuggestionSchema),
    count: Type.Integer({ description: 'Number of suggestions returned' }),
  },
  { title: 'SuggestionList', description: 'The suggestions, best first' },
);
