import { Problems } from '../validate.js';
import { utcInstant } from './fields.js';

/** The `since` and `until` of a memory list or search, as UTC instants comparable with occurred_at. */
export interface OccurredWindow {
  since?: string | undefined;
  until?: string | undefined;
}

/**
 * Reads `since` and `until` (both inclusive, on occurred_at; design §12). Each must name an
 * instant; a window that ends before it starts simply matches nothing.
 */
export function occurredWindow(input: { since?: string | undefined; until?: string | undefined }): OccurredWindow {
  const problems = new Problems();
  const since = input.since === undefined ? undefined : utcInstant('since', input.since, problems);
  const until = input.until === undefined ? undefined : utcInstant('until', input.until, problems);
  problems.throwIfAny();
  return { since, until };
}
