import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import type { Decision } from '../ratelimit/decision.js';

const seconds = (ms: number) => Math.ceil(ms / 1000);

/**
 * The rate-limit headers of DESIGN 1.5, plus the IETF draft's `RateLimit-Policy` and
 * `RateLimit` so clients that follow the coming standard understand us too.
 */
export function setRateLimitHeaders(reply: FastifyReply, decision: Decision): void {
  reply.header('X-RateLimit-Limit', decision.limit);
  reply.header('X-RateLimit-Remaining', decision.remaining);
  reply.header('X-RateLimit-Reset', seconds(decision.resetAtMs));
  reply.header('RateLimit-Policy', `"minute";q=${decision.limit};w=60, "second";q=${decision.burst};w=1`);
  reply.header(
    'RateLimit',
    `"minute";r=${decision.remaining};t=${Math.max(0, seconds(decision.resetAtMs - decision.nowMs))}`,
  );
}

/** The 429 for a refused request: the wait in whole seconds, rounded up, at least 1. */
export function rateLimited(reply: FastifyReply, decision: Decision, scope: string): AppError {
  const retryAfter = Math.max(1, seconds(decision.retryAfterMs));
  reply.header('Retry-After', retryAfter);
  return new AppError('RATE_LIMITED', `rate limit exceeded for ${scope}: retry in ${retryAfter} s`, {
    retry_after: retryAfter,
    limit: decision.limit,
    burst: decision.burst,
    scope,
  });
}
