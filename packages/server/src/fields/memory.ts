import { byClient, byClientOnUpdate, byService, editableFields, readOnlyFields, type RecordOf } from './field.js';

export const MEMORY_TYPES = ['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** A memory's fields in the order the API returns them; account_id stays inside the store. */
export const MEMORY_FIELDS = {
  id: byService<string>('text'),
  brain_id: byService<string>('text'),
  content: byClient<string>('text'),
  memory_type: byClient<MemoryType>('text'),
  speaker: byClient<string | null>('text'),
  tags: byClient<string[]>('json'),
  source_emotion: byClient<string | null>('text'),
  /** −1 (negative) to 1 (positive). */
  emotional_valence: byClient<number | null>('number'),
  /** 0 to 1. */
  emotional_intensity: byClient<number | null>('number'),
  /** When the remembered thing happened (UTC, milliseconds); created_at unless given. */
  occurred_at: byClient<string>('time'),
  /** The conversation, meeting or episode it belongs to, or null. */
  session_id: byClient<string | null>('text'),
  /** The first snapshot the memory was promoted into, or null. */
  promoted_to: byService<string | null>('text'),
  /** The memory of the same brain that replaced this one (design §6.1), or null while it is current. */
  superseded_by: byClientOnUpdate<string | null>('text'),
  /** That memory's occurred_at, or null. */
  superseded_at: byService<string | null>('time'),
  created_at: byService<string>('time'),
  updated_at: byService<string>('time'),
};

/** A lightweight record an agent keeps (design §12.3): searchable, and promotable into snapshots. */
export type Memory = RecordOf<typeof MEMORY_FIELDS>;

/** What a client may set on a memory, on create and (all of it, optionally) on update. */
export const MEMORY_EDITABLE_FIELDS = editableFields(MEMORY_FIELDS);

/** Fields the service sets; a client may send them back on update, unchanged. */
export const MEMORY_READ_ONLY_FIELDS = readOnlyFields(MEMORY_FIELDS);
