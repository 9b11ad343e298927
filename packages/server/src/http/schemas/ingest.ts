import { Type } from 'typebox';
import { INGEST_CONTENT_MAX, INGEST_CONTENT_MIN, INGEST_TITLE_MAX } from '../../domain/ingest/index.js';
import { INGEST_SOURCE_TYPES } from '../../model.js';
import { Nullable, TrimmedText } from './common.js';
import { AutoLinkOption, TextFormatOption } from './crystallize.js';
import { EdgeSchema } from './edge.js';
import { Tags } from './knowledge.js';
import { MemorySchema } from './memory.js';
import { SnapshotSchema } from './snapshot.js';

const SourceType = Type.Enum([...INGEST_SOURCE_TYPES], {
  description: `How the text was captured: ${INGEST_SOURCE_TYPES.join(', ')} (default manual). A url is never fetched`,
});

export const IngestBody = Type.Object(
  {
    content: TrimmedText(
      INGEST_CONTENT_MIN,
      INGEST_CONTENT_MAX,
      `The text, ${INGEST_CONTENT_MIN} to ${INGEST_CONTENT_MAX} characters after trimming (also for source_type url)`,
    ),
    title: Type.Optional(
      Type.String({ maxLength: INGEST_TITLE_MAX, description: 'A title; the snapshots name it as their source' }),
    ),
    source_type: Type.Optional(SourceType),
    tags: Type.Optional(Tags),
    brain_id: Type.Optional(
      Type.String({ minLength: 1, description: "Brain to write into; default: the key's brain" }),
    ),
    extract_memories: Type.Optional(
      Type.Boolean({ description: 'Also keep the memories the text holds (default false)' }),
    ),
    auto_link: Type.Optional(AutoLinkOption),
    format: Type.Optional(TextFormatOption),
  },
  { additionalProperties: false, title: 'IngestRequest' },
);

export const IngestEnvelope = Type.Object(
  {
    data: Type.Object({
      ingestion_id: Type.String({ description: 'ing_…; the snapshots carry it as source_id' }),
      title: Nullable(Type.String()),
      source_type: SourceType,
      snapshots: Type.Array(SnapshotSchema),
      memories: Type.Array(MemorySchema, { description: 'With extract_memories: the memories kept' }),
      edges: Type.Array(EdgeSchema, { description: 'The automatic edges made' }),
    }),
  },
  { title: 'IngestResult', description: 'What the text became' },
);
