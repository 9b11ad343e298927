import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { RateLimiter } from './limiter.js';
import { MemoryRateLimiter } from './memory-limiter.js';
import { RedisRateLimiter } from './redis-limiter.js';

/** In memory for one process; shared through Redis when REDIS_URL is set. */
export async function createRateLimiter(options: {
  redisUrl: string | undefined;
  clock: Clock;
  log: FastifyBaseLogger;
}): Promise<RateLimiter> {
  const memory = new MemoryRateLimiter(options.clock);
  if (!options.redisUrl) return memory;
  const shared = new RedisRateLimiter({ url: options.redisUrl, fallback: memory, log: options.log });
  if (!(await shared.connected())) {
    options.log.warn('Redis not reachable at start: serving with per-instance rate limits until it is');
  }
  return shared;
}
