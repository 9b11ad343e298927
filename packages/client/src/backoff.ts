/**
 * Design §5.8, "client guidance": on a 429 wait Retry-After seconds; when it is absent, back off
 * exponentially, 1 s, 2 s, 4 s … up to 30 s.
 */
export interface RetryOptions {
  /** How many times one call is retried after a 429 before its error is thrown (default 5; 0 turns retrying off). */
  maxRetries?: number;
  /** First wait without Retry-After (default 1,000 ms); it doubles on each retry. */
  initialDelayMs?: number;
  /** Longest wait without Retry-After (default 30,000 ms). */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 5, initialDelayMs: 1_000, maxDelayMs: 30_000 };

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 allows both); undefined
 * when absent or unreadable, so the exponential sequence applies.
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry number `retry` (0 for the first): the server's word, else 1 s, 2 s, 4 s … capped. */
export function delayBeforeRetry(
  retry: number,
  retryAfter: number | undefined,
  options: Required<RetryOptions>,
): number {
  if (retryAfter !== undefined) return retryAfter;
  return Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** retry);
}
