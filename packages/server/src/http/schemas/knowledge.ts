import { Type } from 'typebox';
import { ENTRY_LIMITS } from '../../domain/knowledge/index.js';
import { SNAPSHOT_LIMITS } from '../../domain/snapshots/index.js';
import { ENTRY_TYPES, KNOWLEDGE_SOURCE_TYPES } from '../../model.js';
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
  TrimmedText,
  Unit,
} from './common.js';
import { AutoLinkOption, TextFormatOption } from './crystallize.js';
import { EdgeSchema } from './edge.js';
import { SEARCH_QUERY_MAX } from './search.js';
import { SnapshotSchema } from './snapshot.js';

export const KNOWLEDGE_CONTENT_MAX = 1_000_000;

const EntryTypeSchema = Type.Enum([...ENTRY_TYPES], { description: ENTRY_TYPES.join(', ') });
const BrainId = Type.String({ minLength: 1, description: "Brain to use; default: the key's brain" });
export const Tags = Type.Array(
  TrimmedText(1, SNAPSHOT_LIMITS.tag, `1 to ${SNAPSHOT_LIMITS.tag} characters after trimming`),
  { maxItems: SNAPSHOT_LIMITS.tags, description: `Up to ${SNAPSHOT_LIMITS.tags} labels` },
);
const DomainName = Type.String({ maxLength: 200, description: 'The field the knowledge belongs to' });

export const KnowledgeIngestBody = Type.Object(
  {
    source_type: Type.Enum([...KNOWLEDGE_SOURCE_TYPES], { description: KNOWLEDGE_SOURCE_TYPES.join(', ') }),
    title: TrimmedText(1, 500, 'The source’s title, 1 to 500 characters after trimming'),
    author: Type.Optional(Type.String({ maxLength: 200 })),
    url: Type.Optional(Type.String({ maxLength: 2048, description: 'Where the source lives (never fetched)' })),
    content: Type.Optional(
      Type.String({
        maxLength: KNOWLEDGE_CONTENT_MAX,
        description:
          'The source’s text. Required for document and manual; for the others, required unless an LLM is configured (the service never fetches the url)',
      }),
    ),
    domain: Type.Optional(DomainName),
    tags: Type.Optional(Tags),
    brain_id: Type.Optional(BrainId),
    create_snapshots: Type.Optional(
      Type.Boolean({ description: 'Also make snapshots from the entries (default true)' }),
    ),
    auto_link: Type.Optional(AutoLinkOption),
    format: Type.Optional(TextFormatOption),
  },
  { additionalProperties: false, title: 'KnowledgeIngestRequest' },
);

export const EntrySchema = Type.Object(
  {
    id: Type.String({ description: 'ske_…' }),
    brain_id: Type.String(),
    source_id: Type.String({ description: 'src_…' }),
    entry_type: EntryTypeSchema,
    title: Type.String(),
    content: Type.String(),
    domain: Nullable(Type.String()),
    mastery: Unit('How well it is known, 0 to 1; starts at 0'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'KnowledgeEntry' },
);

export const KnowledgeIngestEnvelope = Type.Object(
  {
    data: Type.Object({
      source_id: Type.String({ description: 'src_…' }),
      title: Type.String(),
      author: Nullable(Type.String()),
      entries_count: Type.Integer(),
      entries: Type.Array(EntrySchema),
      snapshots: Type.Array(SnapshotSchema),
      edges: Type.Array(EdgeSchema, { description: 'The automatic edges made' }),
    }),
  },
  { title: 'KnowledgeIngestResult', description: 'The source, its entries, and the snapshots and edges made' },
);

export const KnowledgeSearchBody = Type.Object(
  {
    query: TrimmedText(1, SEARCH_QUERY_MAX, `1 to ${SEARCH_QUERY_MAX} characters after trimming`),
    brain_id: Type.Optional(BrainId),
    domain: Type.Optional(DomainName),
    entry_type: Type.Optional(EntryTypeSchema),
    limit: SearchBodyLimit,
  },
  { additionalProperties: false, title: 'KnowledgeSearchRequest' },
);

export const KnowledgeSearchEnvelope = TextSearchResults(EntrySchema, 'entries', 'KnowledgeSearchResults');

export const SourceSchema = Type.Object(
  {
    id: Type.String({ description: 'src_…' }),
    brain_id: Type.String(),
    source_type: Type.String(),
    title: Type.String(),
    author: Nullable(Type.String()),
    url: Nullable(Type.String()),
    domain: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    entries_count: Type.Integer(),
    snapshot_ids: Type.Array(Type.String(), { description: 'The snapshots made from it' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'KnowledgeSource' },
);

export const SourceListQuery = Type.Object({
  brain_id: Type.Optional(BrainId),
  limit: PageLimit(100),
  offset: PageOffset,
  cursor: PageCursor,
});

export const SourceListEnvelope = CursorPage(SourceSchema, 'Number of all sources of the brain', {
  title: 'KnowledgeSourceList',
  description: 'A page of sources, newest first',
});

export const SourceEnvelope = Type.Object(
  {
    data: Type.Object({ ...SourceSchema.properties, entries: Type.Array(EntrySchema) }),
  },
  { title: 'KnowledgeSourceResponse', description: 'The source with its entries' },
);

export const EntryEnvelope = Type.Object(
  { data: EntrySchema },
  { title: 'KnowledgeEntryResponse', description: 'The entry' },
);

export const EntryUpdateBody = Type.Object(
  {
    title: Type.Optional(TrimmedText(1, ENTRY_LIMITS.title, `1 to ${ENTRY_LIMITS.title} characters after trimming`)),
    content: Type.Optional(
      TrimmedText(1, ENTRY_LIMITS.content, `1 to ${ENTRY_LIMITS.content} characters after trimming`),
    ),
    domain: Type.Optional(Nullable(DomainName)),
    mastery: Type.Optional(Unit('How well it is known, 0 to 1')),
    id: ReadOnly('Entry id'),
    brain_id: ReadOnly('Owning brain'),
    source_id: ReadOnly('Its source'),
    entry_type: ReadOnly('Its type'),
    created_at: ReadOnly('Creation time'),
    updated_at: ReadOnly('Last update time'),
  },
  { additionalProperties: false, title: 'KnowledgeEntryUpdate' },
);
