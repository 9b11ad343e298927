import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';

/** Settings, read once from the environment at start and validated against this schema. */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.String({ minLength: 1, default: './data/snapgraph.db' }),
  REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  MIGRATE_ON_START: Type.Boolean({ default: true }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
});

type Env = Static<typeof ConfigSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  migrateOnStart: boolean;
  shutdownTimeoutMs: number;
}

const validate = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false }).compile<Env>(
  ConfigSchema,
);

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const known = Object.keys(ConfigSchema.properties);
  const values: Record<string, unknown> = {};
  for (const name of known) {
    const value = env[name];
    if (value !== undefined && value !== '') values[name] = value;
  }
  if (!validate(values)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath.slice(1) || 'config'} ${e.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return {
    port: values.PORT as number,
    host: values.HOST as string,
    databaseUrl: values.DATABASE_URL as string,
    redisUrl: values.REDIS_URL as string | undefined,
    logLevel: values.LOG_LEVEL as Env['LOG_LEVEL'],
    migrateOnStart: values.MIGRATE_ON_START as boolean,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS as number,
  };
}
