import { Type } from 'typebox';
import type { TableShape } from '../../../store/transfer-store.js';
import { fieldKinds, fieldNames } from '../../../fields/field.js';
import { MEMORY_FIELDS, MEMORY_TYPES } from '../../../fields/memory.js';
import type { Section } from '../section.js';
import { closed, Id, inTarget, OptionalText, pick, Text, Time } from './fields.js';
import { schemaCheck } from './schema-check.js';

const COLUMNS = fieldNames(MEMORY_FIELDS);

const shape: TableShape = {
  table: 'memories',
  columns: { account_id: 'text', ...fieldKinds(MEMORY_FIELDS) },
  brainColumn: 'brain_id',
  orderBy: ['created_at', 'id'],
};

const Nullable = <T extends ReturnType<typeof Type.Number>>(schema: T) => Type.Union([schema, Type.Null()]);
const check = schemaCheck(
  Type.Object(
    {
      id: Id('mem'),
      brain_id: Id('brain'),
      content: Text(1, 10_000),
      memory_type: Type.Enum([...MEMORY_TYPES]),
      speaker: OptionalText(200),
      tags: Type.Array(Text(1, 64), { maxItems: 50, uniqueItems: true }),
      source_emotion: OptionalText(64),
      emotional_valence: Nullable(Type.Number({ minimum: -1, maximum: 1 })),
      emotional_intensity: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      // Optional: files exported before design §12 have neither (toRows fills them in).
      occurred_at: Type.Optional(Time),
      session_id: Type.Optional(Type.Union([Text(1, 200), Type.Null()])),
      promoted_to: Type.Union([Id('snap'), Type.Null()]),
      // Optional: files exported before design §6.1 have neither. A memory of this file.
      superseded_by: Type.Optional(Type.Union([Id('mem'), Type.Null()])),
      superseded_at: Type.Optional(Type.Union([Time, Type.Null()])),
      created_at: Time,
      updated_at: Time,
    },
    closed,
  ),
);

/** Memories (design §12), every field as the API returns them; `promoted_to` follows its snapshot's id. */
export const memorySection: Section = {
  kind: 'memory',
  shape,
  references: [{ field: 'promoted_to', kind: 'snapshot' }],
  toRecord: (row) => pick(row, COLUMNS),
  check(record, seen) {
    const problems = check(record);
    if (problems.length > 0) return problems;
    const memory = record as { id: string; brain_id: string; superseded_by?: string | null };
    if (memory.brain_id !== seen.brainId) {
      return [`brain_id is not the brain named in the header (${seen.brainId})`];
    }
    seen.addMemory(memory.id);
    if (typeof memory.superseded_by === 'string') seen.needsMemory(memory.superseded_by);
    return [];
  },
  toRows: (record, target) => [
    {
      shape,
      row: {
        ...inTarget(record, target),
        occurred_at: record.occurred_at ?? record.created_at,
        session_id: record.session_id ?? null,
        promoted_to: record.promoted_to === null ? null : target.mapId(record.promoted_to as string),
        superseded_by: typeof record.superseded_by === 'string' ? target.mapId(record.superseded_by) : null,
        superseded_at: typeof record.superseded_by === 'string' ? (record.superseded_at ?? null) : null,
      },
    },
  ],
};
