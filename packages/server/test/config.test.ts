// The settings' rules (src/config.ts). They are checked by a small reader of the schema rather
// than by Ajv, to keep TypeBox and Ajv out of every CLI start (src/config-schema.ts); these are
// the answers Ajv gave, message for message, when it did the checking.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSettings, Type } from '../src/config-schema.js';
import { ConfigError, defaultComputeThreads, loadConfig } from '../src/config.js';

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message.replace(/^invalid configuration: /, '');
  }
  assert.fail(`accepted ${JSON.stringify(env)}`);
};

describe('settings', () => {
  it('without any, every default', () => {
    assert.deepEqual(loadConfig({}), {
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: './data/snapgraph.db',
      postgres: { poolMax: 10, statementTimeoutMs: 10_000 },
      redisUrl: undefined,
      logLevel: 'info',
      logFormat: 'auto',
      metrics: false,
      migrateOnStart: true,
      shutdownTimeoutMs: 10_000,
      shutdownDrainMs: 500,
      rateLimits: true,
      anonymousLimits: { perMinute: 1000, perSecond: 100 },
      trustProxy: false,
      backgroundWork: true,
      jobs: { leaseMs: 30_000, maxAttempts: 3 },
      imports: { maxBytes: 256 * 1024 * 1024, dir: undefined },
      compute: { threads: defaultComputeThreads(), queueMax: 64, timeoutMs: 120_000 },
      vectors: { index: 'auto', cacheMb: 512, exactMax: 20_000 },
      embeddings: undefined,
      llm: undefined,
    });
  });

  it('reads IMPORT_MAX_BYTES and IMPORT_DIR, and refuses a limit that is not a positive whole number', () => {
    assert.deepEqual(loadConfig({ IMPORT_MAX_BYTES: '1048576', IMPORT_DIR: 'uploads' }).imports, {
      maxBytes: 1_048_576,
      dir: 'uploads',
    });
    for (const bad of ['0', '-1', '1.5', '1e6']) {
      assert.throws(() => loadConfig({ IMPORT_MAX_BYTES: bad }), /IMPORT_MAX_BYTES/);
    }
  });

  it('reads the job settings, and refuses a lease too short to renew or no attempt at all', () => {
    assert.deepEqual(loadConfig({ JOB_LEASE_MS: '1000', JOB_MAX_ATTEMPTS: '5' }).jobs, {
      leaseMs: 1000,
      maxAttempts: 5,
    });
    assert.throws(() => loadConfig({ JOB_LEASE_MS: '10' }), /JOB_LEASE_MS/);
    assert.throws(() => loadConfig({ JOB_MAX_ATTEMPTS: '0' }), /JOB_MAX_ATTEMPTS/);
  });

  it('LOG_FORMAT is auto, json or pretty; METRICS is true or false', () => {
    const config = loadConfig({ LOG_FORMAT: 'pretty', METRICS: 'true' });
    assert.equal(config.logFormat, 'pretty');
    assert.equal(config.metrics, true);
    assert.throws(() => loadConfig({ LOG_FORMAT: 'yaml' }), /LOG_FORMAT must be one of auto, json, pretty/);
    assert.throws(() => loadConfig({ METRICS: 'yes' }), /METRICS must be boolean/);
  });

  it('reads whole numbers in decimal, true and false, a level, a Redis URL; an empty value is unset', () => {
    const config = loadConfig({
      PORT: '9000',
      SHUTDOWN_DRAIN_MS: '007',
      MIGRATE_ON_START: 'false',
      RATE_LIMITS: 'true',
      LOG_LEVEL: 'debug',
      REDIS_URL: 'rediss://cache:6380',
      HOST: '',
      TRUST_PROXY: '2',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.shutdownDrainMs, 7);
    assert.equal(config.migrateOnStart, false);
    assert.equal(config.rateLimits, true);
    assert.equal(config.logLevel, 'debug');
    assert.equal(config.redisUrl, 'rediss://cache:6380');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.trustProxy, 2);
    for (const url of [
      'postgresql://db/snapgraph',
      'sqlite:./data/a.db',
      'file:///tmp/a.db',
      './data/x.db',
      'data/x:y.db',
    ])
      assert.equal(loadConfig({ DATABASE_URL: url }).databaseUrl, url);
  });

  const refused: [Record<string, string>, string][] = [
    [{ PORT: '70000' }, 'PORT must be <= 65535'],
    [{ PORT: '-1' }, 'PORT must be a whole number in plain decimal digits'],
    [{ PORT: '0x10' }, 'PORT must be a whole number in plain decimal digits'],
    [{ PORT: '1.5' }, 'PORT must be a whole number in plain decimal digits'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX must be >= 1'],
    [{ DATABASE_POOL_MAX: '1001' }, 'DATABASE_POOL_MAX must be <= 1000'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL must match pattern "^rediss?://"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ VECTOR_INDEX: 'fast' }, 'VECTOR_INDEX must be one of auto, exact, hnsw'],
    // Another scheme would have been taken for an SQLite file named after the URL.
    [
      { DATABASE_URL: 'postgress://postgres@db:5432/snapgraph' },
      'DATABASE_URL must be postgres://… (or postgresql://…) or the path of an SQLite file; the scheme "postgress" is neither',
    ],
    [
      { DATABASE_URL: 'mysql://x/y' },
      'DATABASE_URL must be postgres://… (or postgresql://…) or the path of an SQLite file; the scheme "mysql" is neither',
    ],
    [{ MIGRATE_ON_START: 'yes' }, 'MIGRATE_ON_START must be boolean'],
    [{ MIGRATE_ON_START: '1' }, 'MIGRATE_ON_START must be boolean'],
    [{ RATE_LIMITS: 'FALSE' }, 'RATE_LIMITS must be boolean'],
    [
      { PORT: '99999', LOG_LEVEL: 'x', MIGRATE_ON_START: 'x' },
      'PORT must be <= 65535; LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; MIGRATE_ON_START must be boolean',
    ],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)}: ${message}`, () => assert.equal(refusal(env), message));
  }

  it('a schema keyword the reader does not check is refused, not ignored', () => {
    const schema = Type.Object({ NAME: Type.String({ maxLength: 3, description: 'a name' }) });
    assert.throws(() => checkSettings(schema, { NAME: 'too long' }), /NAME: the schema keyword "maxLength"/);
  });
});

// The embeddings settings (design §10.1): none by default, defaults when a base URL is set, and a
// clear refusal at start for a setting that cannot work.
describe('config: embeddings', () => {
  it('without EMBEDDINGS_BASE_URL there is no provider', () => {
    assert.equal(loadConfig({}).embeddings, undefined);
    assert.equal(loadConfig({ EMBEDDINGS_BASE_URL: '' }).embeddings, undefined);
  });

  it('with only a base URL: no key, the default model, timeout and batch size', () => {
    assert.deepEqual(loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1' }).embeddings, {
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'text-embedding-3-small',
      timeoutMs: 10_000,
      batchSize: 64,
    });
  });

  it('reads every setting, and drops a trailing slash from the base URL', () => {
    const config = loadConfig({
      EMBEDDINGS_BASE_URL: 'https://api.openai.com/v1/',
      EMBEDDINGS_API_KEY: 'sk-x',
      EMBEDDINGS_MODEL: 'text-embedding-3-large',
      EMBEDDINGS_TIMEOUT_MS: '2500',
      EMBEDDINGS_BATCH_SIZE: '2048',
    });
    assert.deepEqual(config.embeddings, {
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'text-embedding-3-large',
      timeoutMs: 2500,
      batchSize: 2048,
    });
  });

  const refused: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['a URL that is not http(s)', { EMBEDDINGS_BASE_URL: 'ftp://example.com/v1' }, /http:\/\/ or https:\/\//],
    ['no URL at all', { EMBEDDINGS_BASE_URL: 'localhost:11434/v1' }, /http:\/\/ or https:\/\//],
    ['credentials in the URL', { EMBEDDINGS_BASE_URL: 'https://me:sk-x@example.com/v1' }, /EMBEDDINGS_API_KEY/],
    ['a query in the URL', { EMBEDDINGS_BASE_URL: 'https://example.com/v1?api-version=1' }, /query or fragment/],
    ['a timeout of 0', { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_TIMEOUT_MS: '0' }, /EMBEDDINGS_TIMEOUT_MS/],
    ['a batch size of 0', { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_BATCH_SIZE: '0' }, /EMBEDDINGS_BATCH_SIZE/],
    [
      'a batch over 2048',
      { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_BATCH_SIZE: '2049' },
      /EMBEDDINGS_BATCH_SIZE/,
    ],
    ['a batch size in hex', { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_BATCH_SIZE: '0x40' }, /plain decimal/],
    ['a key without a base URL', { EMBEDDINGS_API_KEY: 'sk-x' }, /EMBEDDINGS_API_KEY is set but EMBEDDINGS_BASE_URL/],
    ['a model without a base URL', { EMBEDDINGS_MODEL: 'm' }, /EMBEDDINGS_MODEL is set but EMBEDDINGS_BASE_URL/],
  ];
  for (const [name, env, message] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && message.test(err.message),
      );
    });
  }

  it('never quotes the API key in a refusal', () => {
    assert.throws(
      () => loadConfig({ EMBEDDINGS_BASE_URL: 'nope', EMBEDDINGS_API_KEY: 'sk-secret-123' }),
      (err: unknown) => err instanceof ConfigError && !err.message.includes('sk-secret-123'),
    );
  });
});

// The LLM settings (design §10.1): the same rules as the embeddings provider's.
describe('config: llm', () => {
  it('without LLM_BASE_URL there is none: the built-in extractor works', () => {
    assert.equal(loadConfig({}).llm, undefined);
  });

  it('with only a base URL: no key, the default model, timeout and context', () => {
    assert.deepEqual(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/' }).llm, {
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'gpt-4o-mini',
      timeoutMs: 60_000,
      contextTokens: 4096,
    });
  });

  it('reads every setting', () => {
    const config = loadConfig({
      LLM_BASE_URL: 'https://api.openai.com/v1',
      LLM_API_KEY: 'sk-x',
      LLM_MODEL: 'gpt-4.1',
      LLM_TIMEOUT_MS: '30000',
      LLM_CONTEXT_TOKENS: '128000',
    });
    assert.deepEqual(config.llm, {
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'gpt-4.1',
      timeoutMs: 30_000,
      contextTokens: 128_000,
    });
  });

  const refused: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['a URL that is not http(s)', { LLM_BASE_URL: 'ftp://example.com/v1' }, /LLM_BASE_URL must be an http/],
    ['credentials in the URL', { LLM_BASE_URL: 'https://me:sk-x@example.com/v1' }, /LLM_API_KEY/],
    ['a query in the URL', { LLM_BASE_URL: 'https://example.com/v1?x=1' }, /\/chat\/completions is appended/],
    ['a context under 512 tokens', { LLM_BASE_URL: 'http://h/v1', LLM_CONTEXT_TOKENS: '100' }, /LLM_CONTEXT_TOKENS/],
    ['a model without a base URL', { LLM_MODEL: 'llama3' }, /LLM_MODEL is set but LLM_BASE_URL/],
  ];
  for (const [name, env, message] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && message.test(err.message),
      );
    });
  }
});
