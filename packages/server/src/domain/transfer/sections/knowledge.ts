import { Type } from 'typebox';
import type { TableShape } from '../../../store/transfer-store.js';
import { ENTRY_TYPES, KNOWLEDGE_SOURCE_TYPES } from '../../../model.js';
import type { Section } from '../section.js';
import { closed, Id, inTarget, OptionalText, pick, Text, Time, Unit } from './fields.js';
import { schemaCheck } from './schema-check.js';

const SOURCE_COLUMNS = [
  'id',
  'brain_id',
  'source_type',
  'title',
  'author',
  'url',
  'domain',
  'tags',
  'snapshot_ids',
  'created_at',
  'updated_at',
] as const;
const sourceShape: TableShape = {
  table: 'knowledge_sources',
  columns: {
    account_id: 'text',
    ...Object.fromEntries(SOURCE_COLUMNS.map((c) => [c, 'text'])),
    tags: 'json',
    snapshot_ids: 'json',
    created_at: 'time',
    updated_at: 'time',
  },
  brainColumn: 'brain_id',
  orderBy: ['created_at', 'id'],
};
const checkSource = schemaCheck(
  Type.Object(
    {
      id: Id('src'),
      brain_id: Id('brain'),
      source_type: Type.Enum([...KNOWLEDGE_SOURCE_TYPES]),
      title: Text(1, 500),
      author: OptionalText(200),
      url: OptionalText(2048),
      domain: OptionalText(200),
      tags: Type.Array(Text(1, 64), { maxItems: 50 }),
      snapshot_ids: Type.Array(Id('snap')),
      created_at: Time,
      updated_at: Time,
    },
    closed,
  ),
);

const ENTRY_COLUMNS = [
  'id',
  'brain_id',
  'source_id',
  'position',
  'entry_type',
  'title',
  'content',
  'domain',
  'mastery',
  'created_at',
  'updated_at',
] as const;
const entryShape: TableShape = {
  table: 'knowledge_entries',
  columns: {
    account_id: 'text',
    ...Object.fromEntries(ENTRY_COLUMNS.map((c) => [c, 'text'])),
    position: 'number',
    mastery: 'number',
    created_at: 'time',
    updated_at: 'time',
  },
  brainColumn: 'brain_id',
  orderBy: ['source_id', 'position'],
};
const checkEntry = schemaCheck(
  Type.Object(
    {
      id: Id('ske'),
      brain_id: Id('brain'),
      source_id: Id('src'),
      position: Type.Integer({ minimum: 0 }),
      entry_type: Type.Enum([...ENTRY_TYPES]),
      title: Text(1, 500),
      content: Text(1, 20_000),
      domain: OptionalText(200),
      mastery: Unit,
      created_at: Time,
      updated_at: Time,
    },
    closed,
  ),
);

const inBrain = (record: unknown, brainId: string): string[] =>
  (record as { brain_id: string }).brain_id === brainId
    ? []
    : [`brain_id is not the brain named in the header (${brainId})`];

/** Knowledge sources (design §13.2); the snapshots made from them follow their ids. */
export const knowledgeSourceSection: Section = {
  kind: 'knowledge_source',
  shape: sourceShape,
  references: [{ field: 'snapshot_ids', kind: 'snapshot' }],
  toRecord: (row) => pick(row, SOURCE_COLUMNS),
  check(record, seen) {
    const problems = checkSource(record);
    return problems.length > 0 ? problems : inBrain(record, seen.brainId);
  },
  toRows: (record, target) => [
    {
      shape: sourceShape,
      row: {
        ...inTarget(record, target),
        snapshot_ids: (record.snapshot_ids as string[]).map((id) => target.mapId(id)),
      },
    },
  ],
};

/** Knowledge entries, after their sources, in the order each source's were extracted. */
export const knowledgeEntrySection: Section = {
  kind: 'knowledge_entry',
  shape: entryShape,
  references: [{ field: 'source_id', kind: 'knowledge_source' }],
  toRecord: (row) => pick(row, ENTRY_COLUMNS),
  check(record, seen) {
    const problems = checkEntry(record);
    return problems.length > 0 ? problems : inBrain(record, seen.brainId);
  },
  toRows: (record, target) => [
    {
      shape: entryShape,
      row: {
        ...inTarget(record, target),
        source_id: target.mapId(record.source_id as string),
      },
    },
  ],
};
