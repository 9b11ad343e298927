import { Type } from 'typebox';
import { EDGE_COLUMNS } from '../../../store/columns.js';
import type { TableShape } from '../../../store/transfer-store.js';
import { EDGE_FIELDS, EDGE_ORIGINS, EDGE_TYPES } from '../../../fields/edge.js';
import { fieldKinds } from '../../../fields/field.js';
import type { Reference, Section } from '../section.js';
import { closed, Id, inTarget, OptionalText, pick, Time, Unit } from './fields.js';
import { schemaCheck } from './schema-check.js';

const shape: TableShape = {
  table: 'edges',
  columns: { account_id: 'text', ...fieldKinds(EDGE_FIELDS) },
  brainColumn: 'brain_id',
  orderBy: ['created_at', 'id'],
};

const check = schemaCheck(
  Type.Object(
    {
      id: Id('edge'),
      brain_id: Id('brain'),
      source_id: Id('snap'),
      target_id: Id('snap'),
      edge_type: Type.Enum([...EDGE_TYPES]),
      strength: Unit,
      label: OptionalText(20_000),
      origin: Type.Enum([...EDGE_ORIGINS]),
      created_at: Time,
      updated_at: Time,
    },
    closed,
  ),
);

/** Both ends of an edge (and of a tombstone) are snapshots of the file. */
export const ENDS: readonly Reference[] = [
  { field: 'source_id', kind: 'snapshot' },
  { field: 'target_id', kind: 'snapshot' },
];

/** Checks shared with tombstones: the brain, and two different ends (validate.ts checks ENDS). */
export function endsProblems(
  record: { brain_id: string; source_id: string; target_id: string },
  seen: { brainId: string },
): string[] {
  const problems: string[] = [];
  if (record.brain_id !== seen.brainId)
    problems.push(`brain_id is not the brain named in the header (${seen.brainId})`);
  if (record.source_id === record.target_id) problems.push('source_id and target_id are the same snapshot');
  return problems;
}

/** Edges with their origin (manual or auto), after the snapshots they join. */
export const edgeSection: Section = {
  kind: 'edge',
  shape,
  references: ENDS,
  toRecord: (row) => pick(row, EDGE_COLUMNS),
  check(record, seen) {
    const problems = check(record);
    return problems.length > 0 ? problems : endsProblems(record as Parameters<typeof endsProblems>[0], seen);
  },
  toRows: (record, target) => [
    {
      shape,
      row: {
        ...inTarget(record, target),
        source_id: target.mapId(record.source_id as string),
        target_id: target.mapId(record.target_id as string),
      },
    },
  ],
};
