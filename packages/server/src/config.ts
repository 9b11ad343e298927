import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';
import { ANONYMOUS_DEFAULT_LIMITS } from './ratelimit/policy.js';

/** Settings, read once from the environment at start and validated against this schema. */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.String({ minLength: 1, default: './data/snapgraph.db' }),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  MIGRATE_ON_START: Type.Boolean({ default: true }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, default: 500 }),
  RATE_LIMITS: Type.Boolean({ default: true }),
  ANON_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: ANONYMOUS_DEFAULT_LIMITS.perMinute }),
  ANON_RATE_LIMIT_PER_SECOND: Type.Integer({ minimum: 1, default: ANONYMOUS_DEFAULT_LIMITS.perSecond }),
  TRUST_PROXY: Type.String({ default: 'false' }),
});

type Env = Static<typeof ConfigSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL only: connections per instance, and the longest a statement may run. */
  postgres: { poolMax: number; statementTimeoutMs: number };
  redisUrl: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  migrateOnStart: boolean;
  shutdownTimeoutMs: number;
  /** After SIGTERM, keep accepting this long (readiness failing) so queued connections are served. */
  shutdownDrainMs: number;
  /** Off only for measuring what the limiter costs; on in every real deployment. */
  rateLimits: boolean;
  /** Requests without a valid key, per client address. */
  anonymousLimits: { perMinute: number; perSecond: number };
  /** Which forwarded client address to believe (Fastify's trustProxy): none by default. */
  trustProxy: boolean | number | string[];
}

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false }).compile<Env>(
  ConfigSchema,
);

export class ConfigError extends Error {}

/**
 * TRUST_PROXY: `false` (default: the socket's address is the client), `true` (trust every
 * proxy: only behind one you control), a hop count, or a comma-separated list of proxy
 * addresses or CIDR ranges.
 */
export function parseTrustProxy(value: string): Config['trustProxy'] {
  const text = value.trim();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(ConfigSchema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') values[name] = value;
  }
  if (!validate(values)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath.slice(1) || 'config'} ${e.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const v = values as Env;
  return {
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL,
    postgres: { poolMax: v.DATABASE_POOL_MAX, statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT_MS },
    redisUrl: v.REDIS_URL,
    logLevel: v.LOG_LEVEL,
    migrateOnStart: v.MIGRATE_ON_START,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: v.SHUTDOWN_DRAIN_MS,
    rateLimits: v.RATE_LIMITS,
    anonymousLimits: { perMinute: v.ANON_RATE_LIMIT_PER_MINUTE, perSecond: v.ANON_RATE_LIMIT_PER_SECOND },
    trustProxy: parseTrustProxy(v.TRUST_PROXY),
  };
}
