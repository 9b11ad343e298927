/**
 * Seconds to wait from a Retry-After header (RFC 9110 10.2.3): either delta-seconds (`120`) or
 * an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`), which is counted from `nowMs`. A date already
 * past means "now" (0). Anything else is ignored (undefined) rather than trusted.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  // Date.parse also reads forms that are not HTTP-dates (`2025-01-01`); a weekday name is required.
  if (!/^[A-Za-z]{3,9},? /.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
