import { Problems } from '../validate.js';
import { parseInstant, realDate, storableInstant } from './fields.js';

/** The `since` and `until` of a memory list or search, as UTC instants comparable with occurred_at. */
export interface OccurredWindow {
  since?: string | undefined;
  until?: string | undefined;
}

export type WindowEdge = 'since' | 'until';

/** Why a value is not a window's edge (the same words from the HTTP schema and the domain). */
export const WINDOW_EDGE_REASON =
  'must be an ISO 8601 date (2024-05-01, the whole day in UTC) or date and time with Z or an offset, in the years 0001 to 9999 in UTC';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An edge of the window as an instant: a date and time as it says, or a date alone as its whole
 * day in UTC — `since` from its first millisecond, `until` to its last, so that both stay
 * inclusive (`until=2024-05-01` keeps what happened that afternoon). Undefined when neither.
 */
export function windowEdge(value: unknown, edge: WindowEdge): string | undefined {
  if (typeof value === 'string' && DATE_ONLY.test(value) && realDate(value)) {
    return storableInstant(Date.parse(`${value}T${edge === 'since' ? '00:00:00.000' : '23:59:59.999'}Z`));
  }
  return parseInstant(value);
}

/**
 * Reads `since` and `until` (both inclusive, on occurred_at; design §12). Each must name an
 * instant or a day; a window that ends before it starts simply matches nothing.
 */
export function occurredWindow(input: { since?: string | undefined; until?: string | undefined }): OccurredWindow {
  const problems = new Problems();
  const read = (edge: WindowEdge) => {
    if (input[edge] === undefined) return undefined;
    const instant = windowEdge(input[edge], edge);
    if (instant === undefined) problems.add(edge, WINDOW_EDGE_REASON);
    return instant;
  };
  const window = { since: read('since'), until: read('until') };
  problems.throwIfAny();
  return window;
}

/**
 * The window and the standing of a list or search (design §6.1): `as_of` (an instant, or a
 * date to its end) closes the window there — what occurred later is left out — and
 * `current_only` keeps the memories not yet replaced at that moment (or now).
 */
export function standingWindow(input: {
  since?: string | undefined;
  until?: string | undefined;
  as_of?: string | undefined;
  current_only?: boolean | undefined;
}): OccurredWindow & { asOf?: string | undefined; current?: { asOf?: string | undefined } | undefined } {
  const window = occurredWindow(input);
  if (input.as_of === undefined) return input.current_only ? { ...window, current: {} } : window;
  const asOf = windowEdge(input.as_of, 'until');
  if (asOf === undefined) {
    const problems = new Problems();
    problems.add('as_of', WINDOW_EDGE_REASON);
    problems.throwIfAny();
  }
  const until = window.until === undefined || (asOf as string) < window.until ? asOf : window.until;
  return { ...window, until, asOf, ...(input.current_only ? { current: { asOf } } : {}) };
}
