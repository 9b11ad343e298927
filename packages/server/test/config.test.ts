// The settings' rules (src/config.ts). They are checked by a small reader of the schema rather
// than by Ajv, to keep TypeBox and Ajv out of every CLI start (src/config-schema.ts); these are
// the answers Ajv gave, message for message, when it did the checking.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSettings, Type } from '../src/config-schema.js';
import { ConfigError, loadConfig } from '../src/config.js';

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
      migrateOnStart: true,
      shutdownTimeoutMs: 10_000,
      shutdownDrainMs: 500,
      rateLimits: true,
      anonymousLimits: { perMinute: 1000, perSecond: 100 },
      trustProxy: false,
    });
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
  });

  const refused: [Record<string, string>, string][] = [
    [{ PORT: '70000' }, 'PORT must be <= 65535'],
    [{ PORT: '-1' }, 'PORT must be a whole number in plain decimal digits'],
    [{ PORT: '0x10' }, 'PORT must be a whole number in plain decimal digits'],
    [{ PORT: '1.5' }, 'PORT must be a whole number in plain decimal digits'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX must be >= 1'],
    [{ DATABASE_POOL_MAX: '1001' }, 'DATABASE_POOL_MAX must be <= 1000'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL must match pattern "^rediss?://"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be equal to one of the allowed values'],
    [{ MIGRATE_ON_START: 'yes' }, 'MIGRATE_ON_START must be boolean'],
    [{ MIGRATE_ON_START: '1' }, 'MIGRATE_ON_START must be boolean'],
    [{ RATE_LIMITS: 'FALSE' }, 'RATE_LIMITS must be boolean'],
    [
      { PORT: '99999', LOG_LEVEL: 'x', MIGRATE_ON_START: 'x' },
      'PORT must be <= 65535; LOG_LEVEL must be equal to one of the allowed values; MIGRATE_ON_START must be boolean',
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
