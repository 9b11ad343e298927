import { SNAPSHOT_TEXT_FIELDS } from '../model.js';

/** The narrative fields: every optional text field but the one-liner, searched with less weight. */
export const NARRATIVE_COLUMNS = SNAPSHOT_TEXT_FIELDS.filter((field) => field !== 'one_liner');

/** Every column whose change changes what search finds (and what linking and embeddings see). */
export const SEARCHED_COLUMNS = [
  'brain_id',
  'type',
  'name',
  'core',
  'one_liner',
  'tags',
  ...NARRATIVE_COLUMNS,
] as const;
