import { Type } from 'typebox';
import { canonicalPair } from '../../../store/brain-rows.js';
import type { TableShape } from '../../../store/transfer-store.js';
import { EDGE_TYPES } from '../../../model.js';
import type { Section } from '../section.js';
import { ENDS, endsProblems } from './edges.js';
import { closed, Id, pick, Time } from './fields.js';
import { schemaCheck } from './schema-check.js';

const COLUMNS = ['source_id', 'target_id', 'edge_type', 'brain_id', 'created_at'] as const;

const shape: TableShape = {
  table: 'edge_tombstones',
  columns: { source_id: 'text', target_id: 'text', edge_type: 'text', brain_id: 'text', created_at: 'time' },
  brainColumn: 'brain_id',
  orderBy: ['source_id', 'target_id', 'edge_type'],
};

const check = schemaCheck(
  Type.Object(
    {
      source_id: Id('snap'),
      target_id: Id('snap'),
      edge_type: Type.Enum([...EDGE_TYPES]),
      brain_id: Id('brain'),
      created_at: Time,
    },
    closed,
  ),
);

/** Edges the user deleted, so the service never makes them again in the imported brain either. */
export const tombstoneSection: Section = {
  kind: 'tombstone',
  shape,
  references: ENDS,
  toRecord: (row) => pick(row, COLUMNS),
  check(record, seen) {
    const problems = check(record);
    return problems.length > 0 ? problems : endsProblems(record as Parameters<typeof endsProblems>[0], seen);
  },
  toRows(record, target) {
    const mapped = {
      source_id: target.mapId(record.source_id as string),
      target_id: target.mapId(record.target_id as string),
      edge_type: record.edge_type as string,
    };
    // New ids may order the other way round: related_to pairs are stored in canonical order.
    const [source_id, target_id] = canonicalPair(mapped);
    return [
      { shape, row: { ...mapped, source_id, target_id, brain_id: target.brainId, created_at: record.created_at } },
    ];
  },
};
