import { Type } from 'typebox';
import { TEXT_FORMATS } from '../../domain/extraction/index.js';
import { CursorPage, Nullable, PageCursor, PageLimit, PageOffset, Timestamp, TrimmedText, Unit } from './common.js';
import { EdgeSchema } from './edge.js';
import { SnapshotSchema, SnapshotTypeSchema } from './snapshot.js';

export const CRYSTALLIZE_TEXT = { min: 50, max: 100_000 } as const;
/** How a text was captured (`api`, `transcript`, `meeting-notes`…): design §11.1. */
export const SOURCE_TYPE_PATTERN = '^[a-z0-9_-]{1,64}$';

const BrainId = Type.String({ minLength: 1, description: "Brain to write into; default: the key's brain" });
export const AutoLinkOption = Type.Boolean({
  description: 'Link the new snapshots to each other and to the brain (default true)',
});

/** How the text is read (design §13.4): as Markdown, or as plain text; detected when absent. */
export const TextFormatOption = Type.Enum([...TEXT_FORMATS], {
  description:
    'How to read the text: markdown (headings give each snapshot its source; code, tables, HTML, images and link lists are left out) or text. Default: detected from the Markdown constructs the text uses',
});

export const CrystallizeBody = Type.Object(
  {
    text: TrimmedText(
      CRYSTALLIZE_TEXT.min,
      CRYSTALLIZE_TEXT.max,
      `The text to crystallize, ${CRYSTALLIZE_TEXT.min} to ${CRYSTALLIZE_TEXT.max} characters after trimming`,
    ),
    source_type: Type.Optional(
      Type.String({
        pattern: SOURCE_TYPE_PATTERN,
        description: 'How the text was captured, 1 to 64 of a-z 0-9 _ - (default "api"); the snapshots carry it',
      }),
    ),
    brain_id: Type.Optional(BrainId),
    review: Type.Optional(
      Type.Boolean({ description: 'Store the results as captures to accept or reject (default false)' }),
    ),
    agent_id: Type.Optional(Type.String({ maxLength: 200, description: 'The agent that sent the text' })),
    session_id: Type.Optional(Type.String({ maxLength: 200, description: 'The session the text comes from' })),
    auto_link: Type.Optional(AutoLinkOption),
    format: Type.Optional(TextFormatOption),
  },
  { additionalProperties: false, title: 'CrystallizeRequest' },
);

const PhaseUsage = Type.Object({ tokensIn: Type.Integer(), tokensOut: Type.Integer() }, { title: 'PhaseUsage' });
export const RunUsageSchema = Type.Object(
  {
    totalTokensIn: Type.Integer(),
    totalTokensOut: Type.Integer(),
    model: Type.String({ description: 'The LLM model, or "builtin" for the built-in extractor' }),
    phases: Type.Object({ extract: PhaseUsage, synthesize: PhaseUsage, crystallize: PhaseUsage }),
    embeddingTokens: Type.Integer(),
    totalTokens: Type.Integer(),
  },
  { title: 'RunUsage' },
);
export const RunMetaSchema = Type.Object(
  {
    rawInsightCount: Type.Integer({ description: 'Insights extracted' }),
    refinedCount: Type.Integer({ description: 'After merging near-duplicates within the text' }),
    finalCount: Type.Integer({ description: 'After dropping those the brain already holds' }),
    durationMs: Type.Integer(),
    edgeCount: Type.Optional(
      Type.Integer({ description: 'Automatic edges the run made, among its snapshots and to the brain' }),
    ),
    noEdgeReason: Type.Optional(
      Type.String({
        description:
          'When the run made no edge: why (auto_link off, a review run, nothing to link, no pair scored enough)',
      }),
    ),
  },
  { title: 'RunMeta' },
);

const proposedText = (description: string) => Type.Optional(Nullable(Type.String({ description })));
export const ProposedSnapshotSchema = Type.Object(
  {
    name: Type.String(),
    core: Type.String(),
    type: SnapshotTypeSchema,
    one_liner: proposedText('One-sentence summary'),
    story: proposedText('Narrative or backstory'),
    method: proposedText('How to apply it'),
    steps: proposedText('Step-by-step application process'),
    challenge: proposedText('Strongest counterargument'),
    proof: proposedText('Supporting evidence'),
    confidence: Unit('0 to 1'),
    significance_score: Unit('0 to 1'),
    tags: Type.Array(Type.String()),
  },
  { title: 'ProposedSnapshot' },
);

export const CaptureSchema = Type.Object(
  {
    id: Type.String({ description: 'cap_…' }),
    run_id: Type.String({ description: 'The crystallize run (cry_…) that proposed it' }),
    brain_id: Type.String(),
    snapshot: ProposedSnapshotSchema,
    created_at: Timestamp,
  },
  { title: 'Capture', description: 'A snapshot proposed by a review run, waiting to be accepted or rejected' },
);

export const CrystallizeEnvelope = Type.Object(
  {
    data: Type.Object({
      snapshots: Type.Array(SnapshotSchema),
      count: Type.Integer({ description: 'Snapshots created' }),
      edges: Type.Array(EdgeSchema, { description: 'The automatic edges made' }),
      captures: Type.Optional(Type.Array(CaptureSchema, { description: 'With review: true, the pending captures' })),
    }),
    usage: RunUsageSchema,
    meta: RunMetaSchema,
    run_id: Type.String({ description: 'cry_…: GET /v1/crystallize/:run_id' }),
  },
  { title: 'CrystallizeResult', description: 'What the run made and what it cost' },
);

export const RunParams = Type.Object({
  run_id: Type.String({ minLength: 1, description: 'The run’s id', examples: ['cry_01JDQ8Z2X4M3N5P7Q9R1S3T5V7'] }),
});

export const RunEnvelope = Type.Object(
  {
    data: Type.Object({
      id: Type.String(),
      brain_id: Type.String(),
      status: Type.String({ description: '"succeeded" (snapshots made) or "review" (captures made)' }),
      source_type: Type.String(),
      agent_id: Nullable(Type.String()),
      session_id: Nullable(Type.String()),
      snapshot_ids: Type.Array(Type.String()),
      capture_ids: Type.Array(Type.String()),
      usage: RunUsageSchema,
      meta: RunMetaSchema,
      created_at: Timestamp,
    }),
  },
  { title: 'CrystallizeRunResponse', description: 'The crystallize run' },
);

export const CaptureListQuery = Type.Object({
  brain_id: Type.Optional(Type.String({ minLength: 1, description: "Brain to list; default: the key's brain" })),
  limit: PageLimit(100),
  offset: PageOffset,
  cursor: PageCursor,
});

export const CaptureListEnvelope = CursorPage(CaptureSchema, 'Number of all pending captures of the brain', {
  title: 'CaptureList',
  description: 'A page of pending captures, newest first',
});

/** Accepting or rejecting a capture takes no options: a body, if sent, must be `{}`. */
export const CaptureDecisionBody = Type.Object(
  {},
  { additionalProperties: false, title: 'CaptureDecision', description: 'No fields: the capture is in the path' },
);
