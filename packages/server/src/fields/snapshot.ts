import { byClient, byService, editableFields, fieldNames, readOnlyFields, type RecordOf } from './field.js';

export const SNAPSHOT_TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'] as const;
export type SnapshotType = (typeof SNAPSHOT_TYPES)[number];

export type EmotionObject = object;

/** An optional free-text field of design §2.1: null until set, searched as the snapshot's narrative. */
const freeText = () => ({ ...byClient<string | null>('text'), freeText: true as const });

/** A snapshot's fields in the order the API returns them; account_id stays inside the store. */
export const SNAPSHOT_FIELDS = {
  id: byService<string>('text'),
  brain_id: byService<string>('text'),
  name: byClient<string>('text'),
  core: byClient<string>('text'),
  type: byClient<SnapshotType>('text'),
  one_liner: freeText(),
  story: freeText(),
  moment: freeText(),
  emotion: byClient<EmotionObject | null>('json'),
  source: freeText(),
  trigger_pattern: freeText(),
  method: freeText(),
  steps: freeText(),
  filter: freeText(),
  challenge: freeText(),
  break_test: freeText(),
  risks: freeText(),
  proof: freeText(),
  confidence: byClient<number>('number'),
  significance_score: byClient<number>('number'),
  tags: byClient<string[]>('json'),
  source_type: byService<string>('text'),
  source_id: byService<string | null>('text'),
  created_at: byService<string>('time'),
  updated_at: byService<string>('time'),
};

type SnapshotFieldList = typeof SNAPSHOT_FIELDS;

/** A snapshot as stored and returned. */
export type Snapshot = RecordOf<SnapshotFieldList>;

export type SnapshotTextField = {
  [K in keyof SnapshotFieldList]: SnapshotFieldList[K] extends { freeText: true } ? K : never;
}[keyof SnapshotFieldList];

/** The optional free-text fields, in the API's order. */
export const SNAPSHOT_TEXT_FIELDS = fieldNames(SNAPSHOT_FIELDS).filter(
  (name) => 'freeText' in SNAPSHOT_FIELDS[name],
) as readonly SnapshotTextField[];

/** What a client may set on create and update. */
export const SNAPSHOT_EDITABLE_FIELDS = editableFields(SNAPSHOT_FIELDS);

/** Fields the service sets; a client may send them back on update, unchanged. */
export const SNAPSHOT_READ_ONLY_FIELDS = readOnlyFields(SNAPSHOT_FIELDS);
