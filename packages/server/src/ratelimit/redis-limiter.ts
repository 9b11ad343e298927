import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { Decision } from './decision.js';
import type { RateLimiter } from './limiter.js';
import type { MemoryRateLimiter } from './memory-limiter.js';
import type { Limits } from './policy.js';
import { ROLLING_WINDOW_SCRIPT } from './redis-window.lua.js';

type ScriptReply = [number, number, string, string, string, number];

interface RedisWithWindow extends Redis {
  rollingWindow(key: string, perMinute: number, perSecond: number, member: string): Promise<ScriptReply>;
}

export interface RedisLimiterOptions {
  url: string;
  fallback: MemoryRateLimiter;
  log: FastifyBaseLogger;
  /** A request waits at most this long for Redis before the local fallback decides. */
  commandTimeoutMs?: number;
  keyPrefix?: string;
}

/**
 * Limits shared by every instance through Redis: one script call (one round trip) per request.
 *
 * If Redis cannot be reached, requests are still served, under this instance's own in-memory
 * windows: limits then hold per instance, not across instances, until Redis is back — ioredis
 * reconnects by itself and sharing resumes. The trade-off (availability over an exact shared
 * limit during an outage) is documented in docs/rate-limits.md.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisWithWindow;
  private readonly instance = randomBytes(6).toString('base64url');
  private sequence = 0;
  private degraded = false;

  constructor(private readonly options: RedisLimiterOptions) {
    const redis = new Redis(options.url, {
      // Fail fast instead of queueing while disconnected: the fallback answers meanwhile.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      keyPrefix: options.keyPrefix ?? 'snapgraph:rl:',
      lazyConnect: false,
    });
    redis.defineCommand('rollingWindow', { numberOfKeys: 1, lua: ROLLING_WINDOW_SCRIPT });
    redis.on('ready', () => this.setDegraded(false));
    redis.on('error', (err: Error) => this.setDegraded(true, err));
    this.redis = redis as RedisWithWindow;
  }

  /** Waits (briefly) for the first connection, so that a fresh instance starts out shared. */
  async connected(timeoutMs = 2000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private setDegraded(degraded: boolean, err?: Error): void {
    if (degraded === this.degraded) return;
    this.degraded = degraded;
    if (degraded) {
      this.options.log.warn({ err }, 'Redis unreachable: rate limits now hold per instance until it is back');
    } else {
      this.options.log.info('Redis reachable: rate limits are shared again');
    }
  }

  async consume(bucket: string, limits: Limits): Promise<Decision> {
    if (this.redis.status !== 'ready') {
      this.setDegraded(true);
      return this.options.fallback.consumeNow(bucket, limits);
    }
    try {
      const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % 1e9)}`;
      const [allowed, minute, retry, reset, now, minuteFull] = await this.redis.rollingWindow(
        bucket,
        limits.perMinute,
        limits.perSecond,
        member,
      );
      // A stalled (not disconnected) Redis never emits 'ready' again: an answer is the proof.
      this.setDegraded(false);
      return {
        allowed: allowed === 1,
        limit: limits.perMinute,
        burst: limits.perSecond,
        remaining: allowed === 1 ? Math.max(0, limits.perMinute - minute) : 0,
        resetAtMs: Number(reset),
        retryAfterMs: Number(retry),
        nowMs: Number(now),
        refusedBy: allowed === 1 ? undefined : minuteFull === 1 ? 'minute' : 'second',
      };
    } catch (err) {
      this.setDegraded(true, err as Error);
      return this.options.fallback.consumeNow(bucket, limits);
    }
  }

  health(): Record<string, string> {
    return { redis: this.degraded || this.redis.status !== 'ready' ? 'unreachable' : 'ok' };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.options.fallback.close();
  }
}
