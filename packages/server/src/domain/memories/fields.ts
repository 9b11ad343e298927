import type { Memory, MemoryType } from '../../model.js';
import { normalizeTags } from '../snapshots.js';
import { Problems } from '../validate.js';

export const MEMORY_LIMITS = {
  content: 10_000,
  speaker: 200,
  sourceEmotion: 64,
} as const;

/** Fields the service sets; a client may send them back on update, unchanged. */
export const MEMORY_READ_ONLY_FIELDS = ['id', 'brain_id', 'promoted_to', 'created_at', 'updated_at'] as const;

/** What a client may set on a memory (all of it on update, optionally). */
export interface MemoryFields {
  content: string;
  memory_type: MemoryType;
  speaker: string | null;
  tags: string[] | null;
  source_emotion: string | null;
  emotional_valence: number | null;
  emotional_intensity: number | null;
}

export const EDITABLE_FIELDS: readonly (keyof MemoryFields)[] = [
  'content',
  'memory_type',
  'speaker',
  'tags',
  'source_emotion',
  'emotional_valence',
  'emotional_intensity',
];

/**
 * The checks the JSON schema cannot express (content's length after trimming, tags trimmed and
 * de-duplicated): the fields as they will be stored.
 */
export function normalizeMemoryFields(input: Partial<MemoryFields>): Partial<Memory> {
  const problems = new Problems();
  const out: Partial<Memory> = {};
  for (const field of EDITABLE_FIELDS) {
    if (!(field in input)) continue;
    const value = input[field];
    if (field === 'content') out.content = problems.trimmed('content', value as string, 1, MEMORY_LIMITS.content);
    else if (field === 'tags') out.tags = normalizeTags(value as string[] | null, problems);
    else (out as Record<string, unknown>)[field] = value ?? null;
  }
  problems.throwIfAny();
  return out;
}
