import { Type } from 'typebox';
import type { ImportTarget } from '../section.js';

/** Field schemas shared by the sections: the rules of design §3.4, as stored. */
export const Id = (prefix: string) => Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{10,64}$` });
export const Time = Type.String({
  format: 'date-time',
  // Years 0001–9999, as the API keeps them (memories/fields.ts storableInstant).
  pattern: '^(?!0000-)\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$',
});
export const Unit = Type.Number({ minimum: 0, maximum: 1 });
export const Text = (min: number, max: number) => Type.String({ minLength: min, maxLength: max });
export const OptionalText = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);
export const closed = { additionalProperties: false } as const;

/**
 * A record as a row of the import's target: its id renamed as the import renames ids, in the
 * target's brain and account. A section adds the references it renames too.
 */
export function inTarget(record: Record<string, unknown>, target: ImportTarget): Record<string, unknown> {
  return { ...record, id: target.mapId(record.id as string), brain_id: target.brainId, account_id: target.accountId };
}

/** Values of a record in the order of `columns`, so records always print their fields alike. */
export function pick(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) out[column] = row[column] ?? null;
  return out;
}
