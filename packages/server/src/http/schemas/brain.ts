import { Type } from 'typebox';
import { BRAIN_NAME_MAX } from '../../domain/brains/index.js';
import { BRAIN_EXAMPLE } from './examples.js';
import { PageLimit, PageOffset, ReadOnly, Timestamp, TrimmedText } from './common.js';

const BrainName = TrimmedText(1, BRAIN_NAME_MAX, `1 to ${BRAIN_NAME_MAX} characters after trimming`);
const AutoLink = Type.Boolean({
  description: 'Whether the service links new and updated snapshots of this brain by itself (default false)',
});

export const BrainCreateBody = Type.Object(
  { name: BrainName, auto_link: Type.Optional(AutoLink) },
  { title: 'BrainCreate', additionalProperties: false, examples: [{ name: 'Research' }] },
);

export const BrainUpdateBody = Type.Object(
  {
    name: Type.Optional(BrainName),
    auto_link: Type.Optional(AutoLink),
    id: ReadOnly('Brain id'),
    account_id: ReadOnly('Owning account'),
    snapshot_count: ReadOnly('Number of snapshots'),
    edge_count: ReadOnly('Number of edges'),
    memory_count: ReadOnly('Number of memories'),
    pending_work: ReadOnly('Background tasks queued'),
    created_at: ReadOnly('Creation time'),
    updated_at: ReadOnly('Last update time'),
  },
  {
    title: 'BrainUpdate',
    additionalProperties: false,
    minProperties: 1,
    description: 'A new name, or automatic linking on or off',
    examples: [{ auto_link: true }],
  },
);

export const BrainSchema = Type.Object(
  {
    id: Type.String({ description: 'brain_ followed by a time-ordered random part' }),
    account_id: Type.String(),
    name: Type.String(),
    auto_link: Type.Boolean(),
    snapshot_count: Type.Integer(),
    edge_count: Type.Integer(),
    memory_count: Type.Integer({ description: 'Number of memories (extension)' }),
    pending_work: Type.Object(
      { auto_link: Type.Integer(), embeddings: Type.Integer() },
      {
        description:
          'Extension: background tasks queued for this brain (automatic linking; vectors of its snapshots and memories)',
      },
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Brain', examples: [BRAIN_EXAMPLE] },
);

export const BrainListQuery = Type.Object({ limit: PageLimit(100), offset: PageOffset });
export const BrainEnvelope = Type.Object(
  { data: BrainSchema },
  { title: 'BrainResponse', description: 'The brain, with its counts' },
);
export const BrainListEnvelope = Type.Object(
  {
    data: Type.Array(BrainSchema),
    count: Type.Integer({ description: 'Number of all brains of the account' }),
  },
  { title: 'BrainList', description: 'The account’s brains, newest first' },
);
