import { Type } from 'typebox';
import { LINK_RULES } from '../../domain/linking/index.js';
import { EdgeTypeSchema } from './edge.js';

export const SuggestionQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'How many, 1 to 50' }),
  edge_type: Type.Optional(EdgeTypeSchema),
});

export const SuggestionSchema = Type.Object({
  source_id: Type.String(),
  target_id: Type.String(),
  edge_type: EdgeTypeSchema,
  strength: Type.Number({ description: 'The strength the edge would have (its score, to two decimals)' }),
  score: Type.Number({
    description: `How sure the service is, 0 to 1; it links by itself from ${LINK_RULES.autoMinScore}`,
  }),
  reason: Type.String({ description: 'Why, in words' }),
});

export const SuggestionListEnvelope = Type.Object({
  data: Type.Array(SuggestionSchema),
  count: Type.Integer({ description: 'Number of suggestions returned' }),
});
