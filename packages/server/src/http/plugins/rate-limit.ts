import type { FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';
import type { Decision } from '../../ratelimit/decision.js';
import { decimalText } from '../fast-path/decimal-text.js';

const seconds = (ms: number) => Math.ceil(ms / 1000);
/** Seconds until the minute window is empty again (`RateLimit`'s `t`). */
const secondsToReset = (decision: Decision) => Math.max(0, seconds(decision.resetAtMs - decision.nowMs));
/** The wait of a refused request in whole seconds, rounded up, at least 1. */
const retryAfterSeconds = (decision: Decision) => Math.max(1, seconds(decision.retryAfterMs));

/** What the headers say about a pair of limits, built once per pair. */
interface LimitTexts {
  limit: string;
  policy: string;
  /** The head lines between the numbers that change, for rateLimitHeaderLines. */
  linesUpToRemaining: string;
  linesFromPolicyToRemaining: string;
}

const limitTexts = new Map<number, Map<number, LimitTexts>>();
const MAX_LIMIT_PAIRS = 10_000;

function textsFor(limit: number, burst: number): LimitTexts {
  let byBurst = limitTexts.get(limit);
  if (byBurst === undefined) {
    if (limitTexts.size >= MAX_LIMIT_PAIRS) limitTexts.clear();
    byBurst = new Map();
    limitTexts.set(limit, byBurst);
  }
  let texts = byBurst.get(burst);
  if (texts === undefined) {
    const policy = `"minute";q=${limit};w=60, "second";q=${burst};w=1`;
    texts = {
      limit: String(limit),
      policy,
      linesUpToRemaining: `x-ratelimit-limit: ${limit}\r\nx-ratelimit-remaining: `,
      linesFromPolicyToRemaining: `\r\nratelimit-policy: ${policy}\r\nratelimit: "minute";r=`,
    };
    byBurst.set(burst, texts);
  }
  return texts;
}

/**
 * The rate-limit headers of design §5.5, plus the IETF draft's `RateLimit-Policy` and
 * `RateLimit` so clients that follow the coming standard understand us too, as
 * `[name, value, name, value, …]`, for a Fastify reply.
 *
 * This runs on every request, so it does as little as it can: names already in lower case
 * (Fastify lower-cases every name, and a fresh lower-cased string must then be interned as a
 * property key), values as strings (Node's header writer is slower on numbers), the count that
 * changes on every request written without V8's number-to-string cache (decimal-text.ts), and
 * the texts that depend only on the limits built once.
 */
export function rateLimitHeaders(decision: Decision): string[] {
  const texts = textsFor(decision.limit, decision.burst);
  const remaining = decimalText(decision.remaining);
  const resetIn = secondsToReset(decision);
  return [
    'x-ratelimit-limit',
    texts.limit,
    'x-ratelimit-remaining',
    remaining,
    'x-ratelimit-reset',
    String(seconds(decision.resetAtMs)),
    'ratelimit-policy',
    texts.policy,
    'ratelimit',
    decision.refusedBy === undefined
      ? `"minute";r=${remaining};t=${resetIn}`
      : // Refused: the window that refused, and when it admits again (= Retry-After), so a
        // client reading only the draft's header waits 1 s for a full burst, not the minute.
        `"${decision.refusedBy}";r=0;t=${retryAfterSeconds(decision)}`,
  ];
}

/**
 * The same headers as rateLimitHeaders for an admitted request, in the same order, as ready-made head lines
 * (`name: value\r\n` each) for the fast path: everything but the three numbers that change is
 * built once per pair of limits. Every character is a digit or comes from the texts above, so
 * the lines need no validation.
 */
export function rateLimitHeaderLines(decision: Decision): string {
  const texts = textsFor(decision.limit, decision.burst);
  const remaining = decimalText(decision.remaining);
  return (
    `${texts.linesUpToRemaining}${remaining}\r\nx-ratelimit-reset: ${seconds(decision.resetAtMs)}` +
    `${texts.linesFromPolicyToRemaining}${remaining};t=${secondsToReset(decision)}\r\n`
  );
}

export function setRateLimitHeaders(reply: FastifyReply, decision: Decision): void {
  const headers = rateLimitHeaders(decision);
  for (let i = 0; i < headers.length; i += 2) reply.header(headers[i] as string, headers[i + 1]);
}

/** The 429 for a refused request, with that wait. */
export function rateLimited(reply: FastifyReply, decision: Decision, scope: string): AppError {
  const retryAfter = retryAfterSeconds(decision);
  reply.header('retry-after', String(retryAfter));
  return new AppError('RATE_LIMITED', `rate limit exceeded for ${scope}: retry in ${retryAfter} s`, {
    retry_after: retryAfter,
    limit: decision.limit,
    burst: decision.burst,
    scope,
  });
}
