import { Type, type Static } from 'typebox';
import { SNAPSHOT_TEXT_FIELDS, SNAPSHOT_TYPES } from '../../model.js';
import { SNAPSHOT_LIMITS } from '../../domain/snapshots/index.js';
import { MAX_JSON_BYTES } from '../plugins/validation.js';
import { SNAPSHOT_CREATE_EXAMPLE, SNAPSHOT_EXAMPLE } from './examples.js';
import {
  CursorPage,
  Nullable,
  PageCursor,
  PageLimit,
  PageOffset,
  ReadOnly,
  Timestamp,
  TagFilter,
  TrimmedText,
  Unit,
} from './common.js';

export const SnapshotTypeSchema = Type.Enum([...SNAPSHOT_TYPES], {
  title: 'SnapshotType',
  description: 'Belief, Model, Rule, Conviction or Principle',
});

const Emotion = Type.Object(
  {},
  { additionalProperties: true, description: `Free-form JSON object, at most ${SNAPSHOT_LIMITS.emotionBytes} bytes` },
);
const EmotionInput = Type.Object(
  {},
  {
    additionalProperties: true,
    [MAX_JSON_BYTES]: SNAPSHOT_LIMITS.emotionBytes,
    description: `Free-form JSON object, at most ${SNAPSHOT_LIMITS.emotionBytes} bytes as JSON`,
  },
);

const TEXT_FIELD_DESCRIPTIONS: Record<TextField, string> = {
  one_liner: 'One-sentence summary',
  story: 'Narrative or backstory',
  moment: 'Moment or event that formed the insight',
  source: 'Where the knowledge came from',
  trigger_pattern: 'Situations or patterns that activate the knowledge',
  method: 'How to apply it',
  steps: 'Step-by-step application process',
  filter: 'When it applies and when not',
  challenge: 'Strongest counterargument',
  break_test: 'Evidence that would make the holder abandon the belief',
  risks: 'Risks or downsides of holding it',
  proof: 'Supporting evidence',
};

type TextField = (typeof SNAPSHOT_TEXT_FIELDS)[number];

const textInput = (field: TextField) =>
  Type.Optional(
    Nullable(
      Type.String({
        maxLength: field === 'one_liner' ? SNAPSHOT_LIMITS.one_liner : SNAPSHOT_LIMITS.text,
        description: TEXT_FIELD_DESCRIPTIONS[field],
      }),
    ),
  );
const textOutput = (field: TextField) => Nullable(Type.String({ description: TEXT_FIELD_DESCRIPTIONS[field] }));

const textFieldInputs = Object.fromEntries(SNAPSHOT_TEXT_FIELDS.map((f) => [f, textInput(f)])) as Record<
  TextField,
  ReturnType<typeof textInput>
>;
const textFieldOutputs = Object.fromEntries(SNAPSHOT_TEXT_FIELDS.map((f) => [f, textOutput(f)])) as Record<
  TextField,
  ReturnType<typeof textOutput>
>;

const Name = TrimmedText(
  1,
  SNAPSHOT_LIMITS.name,
  `Display name, 1 to ${SNAPSHOT_LIMITS.name} characters after trimming`,
);
const Core = TrimmedText(
  1,
  SNAPSHOT_LIMITS.core,
  `Core belief, insight or principle, 1 to ${SNAPSHOT_LIMITS.core} characters after trimming`,
);
const Tags = Type.Array(TrimmedText(1, SNAPSHOT_LIMITS.tag, 'A label, trimmed'), {
  maxItems: SNAPSHOT_LIMITS.tags,
  description: `Up to ${SNAPSHOT_LIMITS.tags} labels of 1 to ${SNAPSHOT_LIMITS.tag} characters, trimmed, duplicates dropped`,
});

const editableFields = {
  type: Type.Optional(SnapshotTypeSchema),
  ...textFieldInputs,
  emotion: Type.Optional(Nullable(EmotionInput)),
  confidence: Type.Optional(Unit('Confidence, 0 to 1 (default 0.5)')),
  significance_score: Type.Optional(Unit('Significance, 0 to 1 (default 0.5)')),
};

export const SnapshotCreateBody = Type.Object(
  {
    name: Name,
    core: Core,
    ...editableFields,
    tags: Type.Optional(Nullable(Tags)),
    brain_id: Type.Optional(Type.String({ minLength: 1, description: "Brain to create in; default: the key's brain" })),
  },
  {
    title: 'SnapshotCreate',
    additionalProperties: false,
    description: 'A new snapshot: name and core are required, everything else has a default',
    examples: [SNAPSHOT_CREATE_EXAMPLE],
  },
);

export const SnapshotUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    core: Type.Optional(Core),
    ...editableFields,
    tags: Type.Optional(Nullable(Tags)),
    id: ReadOnly('Snapshot id'),
    brain_id: ReadOnly('Owning brain'),
    source_type: ReadOnly('Origin'),
    source_id: ReadOnly('Origin id'),
    created_at: ReadOnly('Creation time'),
    updated_at: ReadOnly('Last update time'),
  },
  {
    title: 'SnapshotUpdate',
    additionalProperties: false,
    minProperties: 1,
    description: 'The fields to change; tags are replaced; null clears an optional field',
    examples: [{ confidence: 0.9, story: null }],
  },
);

export const SnapshotSchema = Type.Object(
  {
    id: Type.String({ description: 'snap_ followed by a time-ordered random part' }),
    brain_id: Type.String(),
    name: Type.String(),
    core: Type.String(),
    type: SnapshotTypeSchema,
    ...textFieldOutputs,
    emotion: Nullable(Emotion),
    confidence: Type.Number(),
    significance_score: Type.Number(),
    tags: Type.Array(Type.String()),
    source_type: Type.String({ description: '"manual" for snapshots made through the API' }),
    source_id: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Snapshot', examples: [SNAPSHOT_EXAMPLE] },
);

export const SnapshotListQuery = Type.Object({
  type: Type.Optional(SnapshotTypeSchema),
  tag: TagFilter('snapshots'),
  brain_id: Type.Optional(Type.String({ minLength: 1, description: "Brain to list; default: the key's brain" })),
  limit: PageLimit(100),
  offset: PageOffset,
  cursor: PageCursor,
});

export const SnapshotEnvelope = Type.Object(
  { data: SnapshotSchema },
  { title: 'SnapshotResponse', description: 'The snapshot' },
);
export const SnapshotListEnvelope = CursorPage(SnapshotSchema, 'Number of all matching snapshots, not the page size', {
  title: 'SnapshotList',
  description: 'A page of snapshots, newest first',
});
export const SnapshotDeleted = Type.Object(
  { data: Type.Object({ success: Type.Boolean() }) },
  {
    title: 'SnapshotDeleted',
    description: 'Deleted, with every edge attached to it',
    examples: [{ data: { success: true } }],
  },
);

export type SnapshotCreateBodyType = Static<typeof SnapshotCreateBody>;
export type SnapshotUpdateBodyType = Static<typeof SnapshotUpdateBody>;
