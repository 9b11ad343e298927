import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import { checkSettings, Type, type Static } from './config-schema.js';
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

export { ConfigError };

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
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const wrong = parts.find((part) => !isAddressOrRange(part));
  if (wrong !== undefined) {
    throw new ConfigError(
      `invalid configuration: TRUST_PROXY must be false, true, a hop count, or addresses and CIDR ranges separated by commas; "${wrong}" is none of these`,
    );
  }
  return parts;
}

/**
 * `10.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`, or one of the named ranges of Fastify's
 * proxy-address check (`loopback`, `linklocal`, `uniquelocal`).
 */
function isAddressOrRange(text: string): boolean {
  if (NAMED_RANGES.has(text)) return true;
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Integer settings in plain decimal only: `8080`, not `0x1F90`, `8.08e3` or ` 8080`. */
const PLAIN_INTEGER = /^\d+$/;
const INTEGER_SETTINGS = Object.entries(ConfigSchema.properties)
  .filter(([, schema]) => (schema as { type?: string }).type === 'integer')
  .map(([name]) => name);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(ConfigSchema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') values[name] = value;
  }
  // Type coercion would read `0x1F90` or `1e3` as numbers; settings are written in decimal.
  const notDecimal = INTEGER_SETTINGS.filter((name) => name in values && !PLAIN_INTEGER.test(String(values[name])));
  const problems = notDecimal.map((name) => `${name} must be a whole number in plain decimal digits`);
  for (const { name, message } of checkSettings(ConfigSchema, values)) {
    if (!notDecimal.includes(name)) problems.push(`${name} ${message}`);
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
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
