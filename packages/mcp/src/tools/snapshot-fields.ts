import { z } from 'zod';
import { SnapshotType, Unit } from '../vocabulary.js';

const text = (what: string, max = 20_000) => z.string().max(max).nullable().optional().describe(what);

/** The fields an assistant may set on a snapshot (design §2.1), for create and update alike. */
export const snapshotFields = {
  type: SnapshotType.optional(),
  one_liner: text('One-sentence summary (up to 500 characters)', 500),
  story: text('Narrative or backstory'),
  moment: text('Moment or event that formed the insight'),
  source: text('Where the knowledge came from'),
  trigger_pattern: text('Situations or patterns that activate the knowledge'),
  method: text('How to apply it'),
  steps: text('Step-by-step application process'),
  filter: text('When it applies and when not'),
  challenge: text('Strongest counterargument'),
  break_test: text('Evidence that would make the holder abandon the belief'),
  risks: text('Risks or downsides of holding it'),
  proof: text('Supporting evidence'),
  emotion: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .describe('Emotional context as a small JSON object, e.g. {"primary": "hope", "intensity": 0.7}'),
  confidence: Unit('How sure the holder is, 0 to 1 (default 0.5)').optional(),
  significance_score: Unit('How much it matters, 0 to 1 (default 0.5)').optional(),
  tags: z
    .array(z.string().min(1).max(64))
    .max(50)
    .nullable()
    .optional()
    .describe('Labels; on update the list replaces the old one'),
};

/** Drops the arguments the assistant did not give, so that only those are sent. */
export function given<T extends Record<string, unknown>>(args: T): Partial<T> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as Partial<T>;
}
