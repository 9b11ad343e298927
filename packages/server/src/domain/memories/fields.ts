import { MEMORY_EDITABLE_FIELDS, MEMORY_READ_ONLY_FIELDS } from '../../fields/memory.js';
import type { Memory, MemoryType } from '../../model.js';
import { normalizeTags } from '../snapshots/index.js';
import { characterLength, Problems } from '../validate.js';

export const MEMORY_LIMITS = {
  content: 10_000,
  speaker: 200,
  sourceEmotion: 64,
  sessionId: 200,
} as const;

/** Fields the service sets (declared in fields/memory.ts); a client may send them back on update, unchanged. */
export { MEMORY_READ_ONLY_FIELDS };

/** What a client may set on a memory (all of it on update, optionally). */
export interface MemoryFields {
  content: string;
  memory_type: MemoryType;
  speaker: string | null;
  tags: string[] | null;
  source_emotion: string | null;
  emotional_valence: number | null;
  emotional_intensity: number | null;
  /** When the remembered thing happened: ISO 8601 with `Z` or an offset (design §12). */
  occurred_at: string;
  /** The conversation, meeting or episode it belongs to. */
  session_id: string | null;
}

export const EDITABLE_FIELDS: readonly (keyof MemoryFields)[] = MEMORY_EDITABLE_FIELDS;

/** Compiles only when MemoryFields names exactly the fields declared as the client's. */
export const MEMORY_FIELDS_ARE_THE_EDITABLE_ONES: Exclude<
  keyof MemoryFields,
  (typeof MEMORY_EDITABLE_FIELDS)[number]
> extends never
  ? true
  : never = true;

/**
 * ISO 8601 with a date, a time and `Z` or an offset: a time without a zone would mean a
 * different instant on each server, so it is refused rather than guessed.
 */
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}(:?\d{2})?)$/;

/** Why a value is not an instant (the same words from the HTTP schema and the domain). */
export const INSTANT_REASON =
  'must be an ISO 8601 date and time with Z or an offset, e.g. 2024-05-01T14:30:00Z, in the years 0001 to 9999 in UTC';

/**
 * The instants both stores keep and compare alike: PostgreSQL has no year 0, and past 9999 an ISO
 * string grows a sign and six digits ("+010000-…"), which SQLite would compare as text.
 */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** `ms` as UTC with milliseconds, when it is in the years both stores keep. */
export function storableInstant(ms: number): string | undefined {
  return ms >= FIRST_INSTANT && ms <= LAST_INSTANT ? new Date(ms).toISOString() : undefined;
}

/** The instant `value` names, in UTC with milliseconds; undefined when it names none. */
export function parseInstant(value: unknown): string | undefined {
  const match = typeof value === 'string' ? ZONED_TIME.exec(value) : null;
  if (!match || typeof value !== 'string') return undefined;
  const zone = match[3] as string;
  // Date.parse wants the offset as ±HH:MM; ±HH and ±HHMM are ISO 8601 too.
  const offset = /^[Zz]$/.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3).replace(':', '') || '00'}`;
  const ms = Date.parse(`${value.slice(0, value.length - zone.length).replace(/[t ]/, 'T')}${offset}`);
  return Number.isFinite(ms) && realDate(value) ? storableInstant(ms) : undefined;
}

/** The instant `value` names, in UTC with milliseconds; a problem on `field` when it names none. */
export function utcInstant(field: string, value: unknown, problems: Problems): string {
  const instant = parseInstant(value);
  if (instant !== undefined) return instant;
  problems.add(field, INSTANT_REASON);
  return '';
}

/** Date.parse rolls 2024-02-30 over to March; the day written must be a day of its month. */
export function realDate(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

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
    else if (field === 'occurred_at') out.occurred_at = utcInstant('occurred_at', value, problems);
    else if (field === 'session_id') out.session_id = sessionId(value as string | null, problems);
    else (out as Record<string, unknown>)[field] = value ?? null;
  }
  problems.throwIfAny();
  return out;
}

/** A session id is kept as sent (it names the caller's own conversation), 1–200 characters. */
function sessionId(value: string | null | undefined, problems: Problems): string | null {
  if (value === null || value === undefined) return null;
  const length = characterLength(value);
  if (length < 1 || length > MEMORY_LIMITS.sessionId) {
    problems.add('session_id', `must have 1 to ${MEMORY_LIMITS.sessionId} characters`);
  }
  return value;
}
