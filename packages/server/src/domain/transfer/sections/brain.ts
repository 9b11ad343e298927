import { Type } from 'typebox';
import type { TableShape } from '../../../store/transfer-store.js';
import { BRAIN_FIELDS } from '../../../fields/brain.js';
import { fieldKinds, fieldNames } from '../../../fields/field.js';
import type { Section } from '../section.js';
import { closed, Id, pick, Text, Time } from './fields.js';
import { schemaCheck } from './schema-check.js';

const COLUMNS = fieldNames(BRAIN_FIELDS);

const brains: TableShape = {
  table: 'brains',
  columns: fieldKinds(BRAIN_FIELDS),
  brainColumn: 'id',
  orderBy: ['id'],
};

const accounts: TableShape = {
  table: 'accounts',
  columns: { id: 'text', created_at: 'time' },
  brainColumn: 'id',
  orderBy: ['id'],
};

const shape = schemaCheck(
  Type.Object(
    {
      id: Id('brain'),
      account_id: Id('acct'),
      name: Text(1, 200),
      auto_link: Type.Boolean(),
      created_at: Time,
      updated_at: Time,
    },
    closed,
  ),
);

/**
 * The brain itself, first in the file. Imported with its ids kept, it is created (with its
 * account when that is missing); imported into another brain (`--brain`), that brain stays as
 * it is.
 */
export const brainSection: Section = {
  kind: 'brain',
  shape: brains,
  toRecord: (row) => pick(row, COLUMNS),
  check(record, seen) {
    const problems = shape(record);
    if (problems.length === 0 && (record as { id: string }).id !== seen.brainId) {
      problems.push(`id is not the brain named in the header (${seen.brainId})`);
    }
    return problems;
  },
  toRows(record, target) {
    if (!target.keepIds && !target.createsBrain) return [];
    return [
      { shape: accounts, row: { id: target.accountId, created_at: record.created_at } },
      { shape: brains, row: { ...record, id: target.brainId, account_id: target.accountId } },
    ];
  },
};
