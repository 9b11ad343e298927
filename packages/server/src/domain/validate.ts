import { validationError, type FieldProblem } from '../errors.js';

/** Length in characters (code points), the unit the JSON schema validator counts in too. */
export function characterLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/**
 * Collects field problems so one response can name them all, then throws a single 400.
 */
export class Problems {
  private readonly found: FieldProblem[] = [];

  add(field: string, reason: string): void {
    this.found.push({ field, reason });
  }

  throwIfAny(): void {
    if (this.found.length > 0) throw validationError(this.found);
  }

  /** Trims `value` and checks its length; returns the trimmed text. */
  trimmed(field: string, value: string, min: number, max: number): string {
    const text = value.trim();
    // Code points never outnumber UTF-16 units, so the exact count is needed only near the top.
    const length = text.length > max ? characterLength(text) : text.length;
    if (length < min) this.add(field, min === 1 ? 'must not be empty' : `must have at least ${min} characters`);
    else if (length > max) this.add(field, `must have at most ${max} characters`);
    return text;
  }
}

/** Read-only timestamps compare as instants, so an equivalent spelling round-trips too. */
function sameValue(sent: unknown, stored: unknown, isTimestamp: boolean): boolean {
  if (sent === stored) return true;
  if (isTimestamp && typeof sent === 'string' && typeof stored === 'string') {
    const a = Date.parse(sent);
    return Number.isFinite(a) && a === Date.parse(stored);
  }
  return false;
}

/**
 * Read-only fields may come back on an update (GET, change, PUT) but only unchanged.
 */
export function checkReadOnly(
  sent: Record<string, unknown>,
  stored: Record<string, unknown>,
  fields: readonly string[],
): void {
  const problems = new Problems();
  for (const field of fields) {
    if (!(field in sent)) continue;
    if (!sameValue(sent[field], stored[field], field.endsWith('_at'))) {
      problems.add(field, 'is read-only and cannot be changed');
    }
  }
  problems.throwIfAny();
}

/**
 * On an update of an object that does not exist, the one read-only field that can still be
 * judged: an `id` other than the path's is wrong whatever is stored, and a 400 answers before
 * a 404 (design §3.4).
 */
export function checkIdOfMissing(sent: Record<string, unknown>, pathId: string): void {
  const problems = new Problems();
  if ('id' in sent && sent.id !== pathId) problems.add('id', 'is read-only and cannot be changed');
  problems.throwIfAny();
}

/** The next `updated_at`: now, but always at least one millisecond after the previous one. */
export function nextUpdatedAt(previous: string, now: number): string {
  const floor = Date.parse(previous) + 1;
  return new Date(Math.max(now, floor)).toISOString();
}
