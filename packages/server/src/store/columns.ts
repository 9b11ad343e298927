/** Column lists shared by both stores, in the order the API returns the fields. */
import type { Edge, Memory, Snapshot } from '../model.js';

/** Snapshot columns in the order the API returns them; account_id stays inside the store. */
export const SNAPSHOT_COLUMNS = [
  'id',
  'brain_id',
  'name',
  'core',
  'type',
  'one_liner',
  'story',
  'moment',
  'emotion',
  'source',
  'trigger_pattern',
  'method',
  'steps',
  'filter',
  'challenge',
  'break_test',
  'risks',
  'proof',
  'confidence',
  'significance_score',
  'tags',
  'source_type',
  'source_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Snapshot)[];

export const EDGE_COLUMNS = [
  'id',
  'brain_id',
  'source_id',
  'target_id',
  'edge_type',
  'strength',
  'label',
  'origin',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Edge)[];

/** Memory columns in the order the API returns them; account_id stays inside the store. */
export const MEMORY_COLUMNS = [
  'id',
  'brain_id',
  'content',
  'memory_type',
  'speaker',
  'tags',
  'source_emotion',
  'emotional_valence',
  'emotional_intensity',
  'occurred_at',
  'session_id',
  'promoted_to',
  'superseded_by',
  'superseded_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Memory)[];

/** Compiles only when `Columns` names every field of `Row`: a field added to the model needs its column. */
type EveryField<Row, Columns extends readonly string[]> =
  Exclude<keyof Row, Columns[number]> extends never ? true : never;
export const COLUMNS_COVER_THE_MODEL: [
  EveryField<Snapshot, typeof SNAPSHOT_COLUMNS>,
  EveryField<Edge, typeof EDGE_COLUMNS>,
  EveryField<Memory, typeof MEMORY_COLUMNS>,
] = [true, true, true];
