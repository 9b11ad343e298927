import { Type } from 'typebox';
import { EDGE_ORIGINS, EDGE_TYPES } from '../../model.js';
import { EDGE_LABEL_MAX } from '../../domain/edges/index.js';
import { EDGE_CREATE_EXAMPLE, EDGE_EXAMPLE } from './examples.js';
import {
  Defaulted,
  NextCursor,
  Nullable,
  PageCursor,
  PageLimit,
  PageOffset,
  ReadOnly,
  Timestamp,
  Unit,
} from './common.js';

export const EdgeTypeSchema = Type.Enum([...EDGE_TYPES], {
  title: 'EdgeType',
  description: 'supports, contradicts, elaborates, caused_by, evolved_from or related_to (non-directional)',
});

export const EdgeOriginSchema = Type.Enum([...EDGE_ORIGINS], {
  title: 'EdgeOrigin',
  description: 'manual (made by the user, or an automatic edge the user has edited) or auto (made by the service)',
});

const Label = Nullable(Type.String({ maxLength: EDGE_LABEL_MAX, description: 'Human-readable reason' }));

export const EdgeCreateBody = Type.Object(
  {
    source_id: Type.String({ minLength: 1, description: "Snapshot on the 'from' side" }),
    target_id: Type.String({ minLength: 1, description: "Snapshot on the 'to' side" }),
    edge_type: EdgeTypeSchema,
    strength: Type.Optional(Unit('0 to 1, default 0.5')),
    label: Type.Optional(Label),
  },
  {
    title: 'EdgeCreate',
    additionalProperties: false,
    description: 'A new edge: source_id, target_id and edge_type are required; strength defaults to 0.5',
    examples: [EDGE_CREATE_EXAMPLE],
  },
);

export const EdgeUpdateBody = Type.Object(
  {
    edge_type: Type.Optional(EdgeTypeSchema),
    strength: Type.Optional(Unit('0 to 1')),
    label: Type.Optional(Label),
    id: ReadOnly('Edge id'),
    brain_id: ReadOnly('Brain of both snapshots'),
    source_id: ReadOnly('Source snapshot'),
    target_id: ReadOnly('Target snapshot'),
    origin: ReadOnly('manual or auto; an update makes the edge manual'),
    created_at: ReadOnly('Creation time'),
    updated_at: ReadOnly('Last update time'),
  },
  {
    title: 'EdgeUpdate',
    additionalProperties: false,
    minProperties: 1,
    description: 'The fields to change: edge_type, strength or label (null clears it)',
    examples: [{ strength: 0.4, label: null }],
  },
);

export const EdgeSchema = Type.Object(
  {
    id: Type.String({ description: 'edge_ followed by a time-ordered random part' }),
    brain_id: Type.String(),
    source_id: Type.String(),
    target_id: Type.String(),
    edge_type: EdgeTypeSchema,
    strength: Type.Number(),
    label: Nullable(Type.String()),
    origin: EdgeOriginSchema,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Edge', examples: [EDGE_EXAMPLE] },
);

export const EdgeListQuery = Type.Object({
  snapshot_id: Type.Optional(
    Type.String({ minLength: 1, description: 'Edges of this snapshot, incoming and outgoing (wins over brain_id)' }),
  ),
  brain_id: Type.Optional(Type.String({ minLength: 1, description: 'All edges of this brain' })),
  edge_type: Type.Optional(EdgeTypeSchema),
  min_strength: Defaulted(
    Type.Number({ minimum: 0, maximum: 1, default: 0, description: 'Only edges at least this strong (default 0)' }),
  ),
  limit: PageLimit(200),
  offset: PageOffset,
  cursor: PageCursor,
});

export const EdgeEnvelope = Type.Object({ data: EdgeSchema }, { title: 'EdgeResponse', description: 'The edge' });
export const EdgeListEnvelope = Type.Object(
  {
    data: Type.Array(EdgeSchema),
    total: Type.Integer({ description: 'Number of all matching edges, not the page size' }),
    next_cursor: NextCursor,
  },
  { title: 'EdgeList', description: 'A page of edges, newest first' },
);
export const EdgeDeleted = Type.Object(
  { message: Type.String({ description: 'A confirmation' }) },
  {
    title: 'EdgeDeleted',
    description: 'Deleted; both snapshots are unchanged',
    examples: [{ message: 'edge deleted' }],
  },
);
