// FAST PATH (shared with the rate-limit plugin). What it buys: 22 KB → 1.6 KB promoted to the
// old generation per scavenge on GET one with the limiter on, scavenges 1.09 → 0.79 ms, the same
// as limits off (docs/decisions.md; measured with `node --trace-gc` on the server under the load
// of `node bench/ratelimit.mjs`).
/**
 * The decimal text of a count, for header values that change on every request
 * (`X-RateLimit-Remaining`).
 *
 * `String(n)` and template literals go through V8's number-to-string cache, a table of up to
 * 16,384 entries in the old generation. Every new number's text is stored there, which keeps it
 * alive through two young-generation collections and then copies it into the old generation.
 * With a count that differs on every request, that was every request's text: 22–41 KB promoted
 * per scavenge on a GET of one snapshot, scavenges 38% slower, the old generation growing by
 * half a megabyte a second (docs/performance.md). Text put together from the small tables below
 * is short-lived garbage like the rest of the request.
 */
const SMALL = Array.from({ length: 1000 }, (_, i) => String(i));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

export function decimalText(n: number): string {
  if (!(Number.isSafeInteger(n) && n >= 0)) return String(n);
  if (n < 1000) return SMALL[n] as string;
  let text = THREE_DIGITS[n % 1000] as string;
  let rest = Math.floor(n / 1000);
  while (rest >= 1000) {
    text = (THREE_DIGITS[rest % 1000] as string) + text;
    rest = Math.floor(rest / 1000);
  }
  return (SMALL[rest] as string) + text;
}
