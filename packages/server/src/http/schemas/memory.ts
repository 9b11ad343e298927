import { Type } from 'typebox';
import { MEMORY_LIMITS } from '../../domain/memories/index.js';
import { MEMORY_TYPES } from '../../model.js';
import {
  CursorPage,
  Nullable,
  PageCursor,
  PageLimit,
  PageOffset,
  ReadOnly,
  SearchBodyLimit,
  TextSearchResults,
  Timestamp,
  TagFilter,
  TrimmedText,
  Unit,
} from './common.js';
import { AutoLinkOption } from './crystallize.js';
import { EdgeSchema } from './edge.js';
import { Tags } from './knowledge.js';
import { SEARCH_QUERY_MAX } from './search.js';
import { SnapshotSchema } from './snapshot.js';
import { TIME, type TimeKind } from '../plugins/validation.js';

/** The most memories `context` asks for on each side of a search result (design §12.3). */
export const MEMORY_CONTEXT_MAX = 5;

export const MemoryTypeSchema = Type.Enum([...MEMORY_TYPES], { description: MEMORY_TYPES.join(', ') });
const BrainId = Type.String({ minLength: 1, description: "Brain to use; default: the key's brain" });

const Content = TrimmedText(
  1,
  MEMORY_LIMITS.content,
  `What to remember, 1 to ${MEMORY_LIMITS.content} characters after trimming`,
);
const Speaker = Type.String({ maxLength: MEMORY_LIMITS.speaker, description: 'Who said or decided it' });
const SourceEmotion = Type.String({
  maxLength: MEMORY_LIMITS.sourceEmotion,
  description: 'The emotion it came with (e.g. "relief")',
});
const Valence = Type.Number({
  minimum: -1,
  maximum: 1,
  description: 'Emotional valence, −1 (negative) to 1 (positive)',
});
const Intensity = Unit('Emotional intensity, 0 to 1');
// The domain reads times (fields.ts utcInstant), so that every bad one gets the same reason.
const ZonedTime = (description: string, kind: TimeKind, also = '') =>
  Type.String({
    maxLength: 64,
    description: `${description}: ISO 8601 with Z or an offset${also}`,
    examples: ['2024-05-01T14:30:00Z'],
    [TIME]: kind,
  });
const OccurredAt = ZonedTime('When the remembered thing happened (default: created_at)', 'instant');
const SessionId = Type.String({
  minLength: 1,
  maxLength: MEMORY_LIMITS.sessionId,
  description: `The conversation, meeting or episode it belongs to, 1 to ${MEMORY_LIMITS.sessionId} characters`,
});
const Since = ZonedTime(
  'Only memories that occurred at or after this time',
  'since',
  ', or a date: from its start (UTC)',
);
const Until = ZonedTime('Only memories that occurred at or before this time', 'until', ', or a date: to its end (UTC)');
const AsOf = ZonedTime(
  'The brain as it stood then: memories that occurred later are left out and replace nothing',
  'until',
  ', or a date: to its end (UTC)',
);
const CurrentOnly = Type.Boolean({ description: 'Leave superseded memories out (default false)' });
const standing = { current_only: Type.Optional(CurrentOnly), as_of: Type.Optional(AsOf) };
const MemoryId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The memory of the same brain that replaced this one; null: it is current',
});

const optionalFields = {
  memory_type: Type.Optional(MemoryTypeSchema),
  speaker: Type.Optional(Nullable(Speaker)),
  tags: Type.Optional(Nullable(Tags)),
  source_emotion: Type.Optional(Nullable(SourceEmotion)),
  emotional_valence: Type.Optional(Nullable(Valence)),
  emotional_intensity: Type.Optional(Nullable(Intensity)),
  occurred_at: Type.Optional(OccurredAt),
  session_id: Type.Optional(Nullable(SessionId)),
};

export const MemoryCreateBody = Type.Object(
  { content: Content, ...optionalFields, brain_id: Type.Optional(BrainId) },
  { additionalProperties: false, title: 'MemoryCreate' },
);

export const MemoryUpdateBody = Type.Object(
  {
    content: Type.Optional(Content),
    ...optionalFields,
    id: ReadOnly('Memory id'),
    brain_id: ReadOnly('Owning brain'),
    promoted_to: ReadOnly('The snapshot it was promoted into'),
    superseded_by: Type.Optional(Nullable(MemoryId)),
    superseded_at: ReadOnly("The replacing memory's occurred_at"),
    created_at: ReadOnly('Creation time'),
    updated_at: ReadOnly('Last update time'),
  },
  { additionalProperties: false, minProperties: 1, title: 'MemoryUpdate' },
);

export const MemorySchema = Type.Object(
  {
    id: Type.String({ description: 'mem_ followed by a time-ordered random part' }),
    brain_id: Type.String(),
    content: Type.String(),
    memory_type: MemoryTypeSchema,
    speaker: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    source_emotion: Nullable(Type.String()),
    emotional_valence: Nullable(Type.Number()),
    emotional_intensity: Nullable(Type.Number()),
    occurred_at: Type.String({
      format: 'date-time',
      description: 'When the remembered thing happened, UTC with milliseconds (created_at unless given)',
    }),
    session_id: Nullable(Type.String({ description: 'The conversation it belongs to, or null' })),
    promoted_to: Nullable(Type.String({ description: 'The first snapshot it was promoted into, or null' })),
    superseded_by: Nullable(
      Type.String({ description: 'The memory of the same brain that replaced this one, or null while it is current' }),
    ),
    superseded_at: Nullable(
      Type.String({ format: 'date-time', description: "The replacing memory's occurred_at, or null" }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Memory' },
);

export const MemoryEnvelope = Type.Object(
  { data: MemorySchema },
  { title: 'MemoryResponse', description: 'The memory' },
);

export const MemoryListQuery = Type.Object({
  brain_id: Type.Optional(BrainId),
  memory_type: Type.Optional(MemoryTypeSchema),
  speaker: Type.Optional(
    Type.String({ maxLength: MEMORY_LIMITS.speaker, description: 'Only memories of this speaker' }),
  ),
  tag: TagFilter('memories'),
  session_id: Type.Optional(SessionId),
  since: Type.Optional(Since),
  until: Type.Optional(Until),
  ...standing,
  limit: PageLimit(100),
  offset: PageOffset,
  cursor: PageCursor,
});

export const MemoryListEnvelope = CursorPage(MemorySchema, 'Number of all matching memories, not the page size', {
  title: 'MemoryList',
  description: 'A page of memories, newest first',
});

export const MemorySearchBody = Type.Object(
  {
    query: TrimmedText(
      1,
      SEARCH_QUERY_MAX,
      'Words to find (stemmed; stop words match nothing); "a phrase" in quotes; word* for a prefix',
    ),
    brain_id: Type.Optional(BrainId),
    memory_type: Type.Optional(MemoryTypeSchema),
    speaker: Type.Optional(
      Type.String({ maxLength: MEMORY_LIMITS.speaker, description: 'Only memories of this speaker' }),
    ),
    session_id: Type.Optional(SessionId),
    since: Type.Optional(Since),
    until: Type.Optional(Until),
    ...standing,
    context: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MEMORY_CONTEXT_MAX,
        description: `0 to ${MEMORY_CONTEXT_MAX} (default 0): each result carries the up to n memories just before and just after it in its session`,
      }),
    ),
    limit: SearchBodyLimit,
  },
  { additionalProperties: false, title: 'MemorySearchRequest' },
);

export const MemorySearchEnvelope = TextSearchResults(
  Type.Object({
    ...MemorySchema.properties,
    context: Type.Optional(
      Type.Array(MemorySchema, {
        description:
          'With `context`: the memories around this one in its session by occurred_at, oldest first (empty without a session)',
      }),
    ),
  }),
  'memories',
  'MemorySearchResults',
);

export const MemoryPromoteBody = Type.Object(
  { auto_link: Type.Optional(AutoLinkOption) },
  { additionalProperties: false, title: 'MemoryPromote' },
);

export const MemoryPromotedEnvelope = Type.Object(
  {
    data: Type.Object({
      memory: MemorySchema,
      snapshots: Type.Array(SnapshotSchema, { description: 'The snapshots made from the memory' }),
      edges: Type.Array(EdgeSchema, { description: 'The automatic edges made (none when it was promoted before)' }),
    }),
  },
  { title: 'MemoryPromoted', description: 'The memory and the snapshots it was promoted into' },
);

export const MemoryHistoryEnvelope = Type.Object(
  { data: Type.Array(MemorySchema) },
  { title: 'MemoryHistory', description: 'The versions of the fact this memory belongs to, oldest first' },
);
