import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { ConfigError } from './config-error.js';
import { databaseUrlProblem } from './store/open-store.js';
import { checkSettings, Type, type Static } from './config-schema.js';
import type { ComputeSettings } from './domain/compute/pool.js';
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
  // auto: one readable line per event when stdout is a terminal, JSON lines otherwise.
  LOG_FORMAT: Type.Enum(['auto', 'json', 'pretty'], { default: 'auto' }),
  // GET /metrics in Prometheus's text format; off unless asked for.
  METRICS: Type.Boolean({ default: false }),
  MIGRATE_ON_START: Type.Boolean({ default: true }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  SHUTDOWN_DRAIN_MS: Type.Integer({ minimum: 0, default: 500 }),
  RATE_LIMITS: Type.Boolean({ default: true }),
  ANON_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: ANONYMOUS_DEFAULT_LIMITS.perMinute }),
  ANON_RATE_LIMIT_PER_SECOND: Type.Integer({ minimum: 1, default: ANONYMOUS_DEFAULT_LIMITS.perSecond }),
  TRUST_PROXY: Type.String({ default: 'false' }),
  BACKGROUND_WORK: Type.Boolean({ default: true }),
  JOB_LEASE_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 30_000 }),
  JOB_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 100, default: 3 }),
  IMPORT_MAX_BYTES: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 256 * 1024 * 1024 }),
  IMPORT_DIR: Type.Optional(Type.String({ minLength: 1 })),
  // Threads for CPU-heavy text work (extraction, linking); default: the cores but one, 1 to 4.
  COMPUTE_THREADS: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  COMPUTE_QUEUE_MAX: Type.Integer({ minimum: 0, maximum: 100_000, default: 64 }),
  COMPUTE_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 120_000 }),
  EMBEDDINGS_BASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  EMBEDDINGS_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  EMBEDDINGS_MODEL: Type.String({ minLength: 1, default: 'text-embedding-3-small' }),
  EMBEDDINGS_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 10_000 }),
  // OpenAI takes at most 2048 inputs in one request.
  EMBEDDINGS_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 2048, default: 64 }),
  // Vectors at scale (design §20): exact search up to VECTOR_EXACT_MAX vectors a brain, HNSW above.
  VECTOR_INDEX: Type.Enum(['auto', 'exact', 'hnsw'], { default: 'auto' }),
  VECTOR_CACHE_MB: Type.Integer({ minimum: 1, maximum: 1_048_576, default: 512 }),
  VECTOR_EXACT_MAX: Type.Integer({ minimum: 0, default: 20_000 }),
  LLM_BASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  LLM_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  LLM_MODEL: Type.String({ minLength: 1, default: 'gpt-4o-mini' }),
  LLM_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 60_000 }),
  // Small enough for a local model's default context (Ollama's is 2,048–4,096 tokens).
  LLM_CONTEXT_TOKENS: Type.Integer({ minimum: 512, default: 4096 }),
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
  /** `pretty`: pino-pretty's one readable line per event; `json`: JSON lines; `auto`: pretty on a terminal. */
  logFormat: Env['LOG_FORMAT'];
  /** Whether GET /metrics answers (Prometheus text format). */
  metrics: boolean;
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
  /** Whether this process runs the background worker (auto-linking, embeddings); off for API-only nodes. */
  backgroundWork: boolean;
  /**
   * Jobs (design §14): how long a running job is its runner's without renewal (the time a job
   * of a crashed process waits before another runs it), and how many claims a job gets.
   */
  jobs: { leaseMs: number; maxAttempts: number };
  /**
   * POST /v1/brains/import (design §15.3): the largest file taken, and where uploads wait for
   * their job (undefined: a folder of the system's temporary directory named after the database).
   */
  imports: { maxBytes: number; dir: string | undefined };
  /** The compute pool (domain/compute): threads, calls that may wait, and the budget of one call. */
  compute: ComputeSettings;
  /** An OpenAI-compatible embeddings endpoint; undefined when EMBEDDINGS_BASE_URL is unset (no semantic search). */
  embeddings: EmbeddingsSettings | undefined;
  /** How vectors are searched and how much memory they may hold (VECTOR_*); defaults when absent. */
  vectors?: VectorSettings;
  /** An OpenAI-compatible chat endpoint; undefined when LLM_BASE_URL is unset (the built-in extractor). */
  llm: LlmSettings | undefined;
}

/** VECTOR_INDEX, VECTOR_CACHE_MB and VECTOR_EXACT_MAX (design §20). */
export interface VectorSettings {
  /** `auto`: exact search up to `exactMax` vectors a brain, the HNSW index above. */
  index: 'auto' | 'exact' | 'hnsw';
  /** The memory every brain's vectors and indexes may hold in one process. */
  cacheMb: number;
  exactMax: number;
}

export interface LlmSettings {
  /** Up to and including the API version; `/chat/completions` is added to it. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /** The model's context window in tokens: long input is split to fit it, never truncated. */
  contextTokens: number;
}

export interface EmbeddingsSettings {
  /** Up to and including the API version, e.g. `https://api.openai.com/v1`; `/embeddings` is added to it. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; local servers (Ollama, llama.cpp) need none. */
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  /** The most texts sent in one request; longer input is split into several. */
  batchSize: number;
}

export { ConfigError };

/** The cores but one (the event loop's), at least 1 and at most 4. */
export function defaultComputeThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

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
  const database = databaseUrlProblem(String(values.DATABASE_URL));
  if (database !== undefined) problems.push(`DATABASE_URL ${database}`);
  if (problems.length === 0) {
    problems.push(...providerProblems(EMBEDDINGS_PROVIDER, values as Env, env));
    problems.push(...providerProblems(LLM_PROVIDER, values as Env, env));
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
    logFormat: v.LOG_FORMAT,
    metrics: v.METRICS,
    migrateOnStart: v.MIGRATE_ON_START,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: v.SHUTDOWN_DRAIN_MS,
    rateLimits: v.RATE_LIMITS,
    anonymousLimits: { perMinute: v.ANON_RATE_LIMIT_PER_MINUTE, perSecond: v.ANON_RATE_LIMIT_PER_SECOND },
    trustProxy: parseTrustProxy(v.TRUST_PROXY),
    backgroundWork: v.BACKGROUND_WORK,
    jobs: { leaseMs: v.JOB_LEASE_MS, maxAttempts: v.JOB_MAX_ATTEMPTS },
    imports: { maxBytes: v.IMPORT_MAX_BYTES, dir: v.IMPORT_DIR },
    compute: {
      threads: v.COMPUTE_THREADS ?? defaultComputeThreads(),
      queueMax: v.COMPUTE_QUEUE_MAX,
      timeoutMs: v.COMPUTE_TIMEOUT_MS,
    },
    embeddings: v.EMBEDDINGS_BASE_URL
      ? {
          baseUrl: v.EMBEDDINGS_BASE_URL.replace(/\/+$/, ''),
          apiKey: v.EMBEDDINGS_API_KEY,
          model: v.EMBEDDINGS_MODEL,
          timeoutMs: v.EMBEDDINGS_TIMEOUT_MS,
          batchSize: v.EMBEDDINGS_BATCH_SIZE,
        }
      : undefined,
    vectors: { index: v.VECTOR_INDEX, cacheMb: v.VECTOR_CACHE_MB, exactMax: v.VECTOR_EXACT_MAX },
    llm: v.LLM_BASE_URL
      ? {
          baseUrl: v.LLM_BASE_URL.replace(/\/+$/, ''),
          apiKey: v.LLM_API_KEY,
          model: v.LLM_MODEL,
          timeoutMs: v.LLM_TIMEOUT_MS,
          contextTokens: v.LLM_CONTEXT_TOKENS,
        }
      : undefined,
  };
}

/** A provider's settings: its base URL, the path appended to it, and the settings that need it. */
interface ProviderSettingNames {
  baseUrl: 'EMBEDDINGS_BASE_URL' | 'LLM_BASE_URL';
  apiKey: string;
  path: string;
  use: string;
  dependent: readonly string[];
}

const EMBEDDINGS_PROVIDER: ProviderSettingNames = {
  baseUrl: 'EMBEDDINGS_BASE_URL',
  apiKey: 'EMBEDDINGS_API_KEY',
  path: '/embeddings',
  use: 'an embeddings provider',
  dependent: ['EMBEDDINGS_API_KEY', 'EMBEDDINGS_MODEL', 'EMBEDDINGS_TIMEOUT_MS', 'EMBEDDINGS_BATCH_SIZE'],
};

const LLM_PROVIDER: ProviderSettingNames = {
  baseUrl: 'LLM_BASE_URL',
  apiKey: 'LLM_API_KEY',
  path: '/chat/completions',
  use: 'an LLM provider',
  dependent: ['LLM_API_KEY', 'LLM_MODEL', 'LLM_TIMEOUT_MS', 'LLM_CONTEXT_TOKENS'],
};

/**
 * The base URL is joined with the provider's path, so it must be a plain http(s) address: a
 * query or fragment would end up in the wrong place, and credentials in it would be written to
 * logs (the key belongs in the API key setting). The other settings alone do nothing, which is
 * more likely a forgotten base URL than an intent, so they are refused without it.
 */
function providerProblems(names: ProviderSettingNames, v: Env, env: NodeJS.ProcessEnv): string[] {
  const base = v[names.baseUrl];
  if (base === undefined) {
    return names.dependent
      .filter((name) => env[name] !== undefined && env[name] !== '')
      .map((name) => `${name} is set but ${names.baseUrl} is not: set it to use ${names.use}`);
  }
  const notHttp = `${names.baseUrl} must be an http:// or https:// URL`;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return [notHttp];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [notHttp];
  if (url.username || url.password) {
    return [`${names.baseUrl} must not contain credentials: put the key in ${names.apiKey}`];
  }
  if (url.search || url.hash || base.includes('?') || base.includes('#')) {
    return [`${names.baseUrl} must not have a query or fragment: ${names.path} is appended to it`];
  }
  return [];
}
