import { byClient, byService, readOnlyFields, type RecordOf } from './field.js';

/** A brain's fields in the order the API returns them. */
export const BRAIN_FIELDS = {
  id: byService<string>('text'),
  account_id: byService<string>('text'),
  name: byClient<string>('text'),
  /** Whether the service links this brain's snapshots by itself (design §9). */
  auto_link: byClient<boolean>('boolean'),
  created_at: byService<string>('time'),
  updated_at: byService<string>('time'),
};

/** A brain as stored (its counts are added when it is read: BrainWithCounts in model.ts). */
export type Brain = RecordOf<typeof BRAIN_FIELDS>;

/** Fields the service sets; a client may send them back on update, unchanged. */
export const BRAIN_READ_ONLY_FIELDS = readOnlyFields(BRAIN_FIELDS);
