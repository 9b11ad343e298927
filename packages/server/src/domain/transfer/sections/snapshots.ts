import { isIdOf } from '../../../ids.js';
import { Type } from 'typebox';
import { SNAPSHOT_COLUMNS } from '../../../store/columns.js';
import type { TableShape } from '../../../store/transfer-store.js';
import { fieldKinds } from '../../../fields/field.js';
import { SNAPSHOT_FIELDS, SNAPSHOT_TEXT_FIELDS, SNAPSHOT_TYPES } from '../../../fields/snapshot.js';
import { SNAPSHOT_LIMITS } from '../../snapshots/index.js';
import type { Section } from '../section.js';
import { closed, Id, inTarget, OptionalText, pick, Text, Time, Unit } from './fields.js';
import { schemaCheck } from './schema-check.js';

const shape: TableShape = {
  table: 'snapshots',
  columns: { account_id: 'text', ...fieldKinds(SNAPSHOT_FIELDS) },
  brainColumn: 'brain_id',
  orderBy: ['created_at', 'id'],
  dropsAutoLinkWork: true,
};

const textFields = Object.fromEntries(
  SNAPSHOT_TEXT_FIELDS.map((field) => [field, OptionalText(field === 'one_liner' ? 500 : 20_000)]),
);

const check = schemaCheck(
  Type.Object(
    {
      id: Id('snap'),
      brain_id: Id('brain'),
      name: Text(1, 200),
      core: Text(1, 10_000),
      type: Type.Enum([...SNAPSHOT_TYPES]),
      ...textFields,
      emotion: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
      confidence: Unit,
      significance_score: Unit,
      tags: Type.Array(Text(1, 64), { maxItems: 50, uniqueItems: true }),
      source_type: Text(1, 64),
      source_id: Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]),
      created_at: Time,
      updated_at: Time,
    },
    closed,
  ),
);

/** Snapshots, every field as the API returns them. */
export const snapshotSection: Section = {
  kind: 'snapshot',
  shape,
  toRecord: (row) => pick(row, SNAPSHOT_COLUMNS),
  check(record, seen) {
    const problems = check(record);
    const snapshot = record as { id: unknown; brain_id: string };
    if (problems.length > 0) return problems;
    const emotion = (record as { emotion: unknown }).emotion;
    // The API's limit (design §3.4): an import stores nothing an API write could not.
    if (emotion !== null && Buffer.byteLength(JSON.stringify(emotion)) > SNAPSHOT_LIMITS.emotionBytes)
      return [`emotion must be at most ${SNAPSHOT_LIMITS.emotionBytes} bytes as JSON`];
    if (snapshot.brain_id !== seen.brainId) return [`brain_id is not the brain named in the header (${seen.brainId})`];
    return [];
  },
  toRows: (record, target) => [
    {
      shape,
      row: {
        ...inTarget(record, target),
        // A promotion's snapshot names its memory, which the file's memories section renames
        // alike: promotion finds its snapshots by it, and promoted_to moves along them.
        source_id: promotedFrom(record) ? target.mapId(record.source_id as string) : record.source_id,
      },
    },
  ],
};

/** Whether the snapshot was made by promoting a memory: its source_id is that memory's id. */
function promotedFrom(record: Record<string, unknown>): boolean {
  return record.source_type === 'memory' && typeof record.source_id === 'string' && isIdOf('mem', record.source_id);
}
