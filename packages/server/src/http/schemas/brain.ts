import { Type } from 'typebox';
import { BRAIN_NAME_MAX } from '../../domain/brains.js';
import { PageLimit, PageOffset, Timestamp, TrimmedText } from './common.js';

export const BrainCreateBody = Type.Object(
  { name: TrimmedText(1, BRAIN_NAME_MAX, `1 to ${BRAIN_NAME_MAX} characters after trimming`) },
  { additionalProperties: false },
);

export const BrainSchema = Type.Object(
  {
    id: Type.String({ description: 'brain_ followed by a time-ordered random part' }),
    account_id: Type.String(),
    name: Type.String(),
    snapshot_count: Type.Integer(),
    edge_count: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Brain' },
);

export const BrainListQuery = Type.Object({ limit: PageLimit(100), offset: PageOffset });
export const BrainEnvelope = Type.Object({ data: BrainSchema });
export const BrainListEnvelope = Type.Object({
  data: Type.Array(BrainSchema),
  count: Type.Integer({ description: 'Number of all brains of the account' }),
});
