import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createTestDatabase } from './database.js';
import type { Clock } from '../../src/clock.js';
import { issueApiKey } from '../../src/domain/keys/index.js';
import type { Plan } from '../../src/model.js';
import type { EmbeddingsSettings, LlmSettings, VectorSettings } from '../../src/config.js';
import type { ComputeSettings } from '../../src/domain/compute/index.js';

export interface TestKey {
  key: string;
  keyId: string;
  accountId: string;
  brainId: string;
}

export interface ApiResponse {
  status: number;
  headers: LightMyRequestResponse['headers'];
  body: any; // parsed JSON, or the raw text when the body is not JSON
  raw: LightMyRequestResponse;
}

export interface RequestOptions {
  key?: TestKey | string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send `body` as this exact text instead of JSON-encoding it. */
  rawBody?: string;
}

export interface TestApi {
  app: FastifyInstance;
  dir: string;
  /** The database's DATABASE_URL: an SQLite file path, or a postgres:// URL. */
  databasePath: string;
  newKey(options?: { plan?: Plan; brainId?: string; rpm?: number; burst?: number }): Promise<TestKey>;
  request(method: string, url: string, options?: RequestOptions): Promise<ApiResponse>;
  close(): Promise<void>;
}

/**
 * The real application on a real SQLite file in a fresh temporary directory, driven through
 * `app.inject`. Close it in `after`/`t.after`.
 */
export interface TestApiOptions {
  clock?: Clock;
  /** Off unless asked for: functional suites make many requests with one key. */
  rateLimits?: boolean;
  redisUrl?: string;
  anonymousLimits?: { perMinute: number; perSecond: number };
  /** The background worker (auto-linking); on unless a test needs work to stay queued. */
  backgroundWork?: boolean;
  /** An embedding provider (a fake OpenAI server in tests): search gains meaning. */
  embeddings?: EmbeddingsSettings;
  /** An LLM provider (a fake OpenAI server in tests): crystallize and ingestion use it. */
  llm?: LlmSettings;
  /** Routes of the test's own under both prefixes (a job kind's route: test/jobs/test-kinds.ts). */
  extraRoutes?: FastifyPluginAsync;
  /** JOB_LEASE_MS and JOB_MAX_ATTEMPTS. */
  jobs?: { leaseMs: number; maxAttempts: number };
  /** GET /metrics (METRICS=true). */
  metrics?: boolean;
  /** IMPORT_MAX_BYTES and IMPORT_DIR (POST /v1/brains/import). */
  imports?: { maxBytes: number; dir: string | undefined };
  /** COMPUTE_THREADS, COMPUTE_QUEUE_MAX, COMPUTE_TIMEOUT_MS. */
  compute?: ComputeSettings;
  /** VECTOR_INDEX, VECTOR_CACHE_MB, VECTOR_EXACT_MAX; the defaults unless given. */
  vectors?: VectorSettings;
}

export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const dir = mkdtempSync(join(tmpdir(), 'snapgraph-test-'));
  const database = await createTestDatabase(dir);
  const databasePath = database.url;
  const app = await buildApp({
    config: {
      databaseUrl: databasePath,
      logLevel: (process.env.TEST_LOG ?? 'silent') as 'silent',
      migrateOnStart: true,
      rateLimits: options.rateLimits ?? false,
      redisUrl: options.redisUrl,
      backgroundWork: options.backgroundWork ?? true,
      embeddings: options.embeddings,
      llm: options.llm,
      metrics: options.metrics ?? false,
      ...(options.vectors ? { vectors: options.vectors } : {}),
      ...(options.anonymousLimits ? { anonymousLimits: options.anonymousLimits } : {}),
      ...(options.jobs ? { jobs: options.jobs } : {}),
      ...(options.imports ? { imports: options.imports } : {}),
      ...(options.compute ? { compute: options.compute } : {}),
    },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.extraRoutes ? { extraRoutes: options.extraRoutes } : {}),
    // Most test files call a few routes: compiling every route's schemas at start was most of
    // the cost of each file's first app (http/plugins/schema-compilers.ts).
    compileSchemasOnFirstUse: true,
  });
  await app.ready();

  const newKey: TestApi['newKey'] = async (keyOptions = {}) => {
    const { key, record } = await issueApiKey(app.domain, { plan: keyOptions.plan ?? 'pro', ...keyOptions });
    return { key, keyId: record.id, accountId: record.account_id, brainId: record.brain_id };
  };

  const request = injector(app);

  return {
    app,
    dir,
    databasePath,
    newKey,
    request,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Requests through `app.inject`, with a key and a JSON body made easy. */
function injector(app: FastifyInstance): TestApi['request'] {
  return async (method, url, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers };
    const key = requestOptions.key;
    if (key) headers.authorization = `Bearer ${typeof key === 'string' ? key : key.key}`;
    let payload: string | undefined;
    if (requestOptions.rawBody !== undefined) payload = requestOptions.rawBody;
    else if (requestOptions.body !== undefined) {
      payload = JSON.stringify(requestOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    const raw = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    let body: unknown = raw.body;
    try {
      body = raw.body === '' ? undefined : JSON.parse(raw.body);
    } catch {
      // not JSON: keep the text
    }
    return { status: raw.statusCode, headers: raw.headers, body, raw };
  };
}

/**
 * A second application on an existing test database: to its caches, the first one's writes come
 * from another connection, as from another process. Closing it leaves the database alone.
 */
export async function connectTestApi(
  databasePath: string,
  options: Pick<
    TestApiOptions,
    'rateLimits' | 'embeddings' | 'backgroundWork' | 'extraRoutes' | 'jobs' | 'imports' | 'compute' | 'vectors'
  > = {},
): Promise<Pick<TestApi, 'app' | 'request' | 'close'>> {
  const app = await buildApp({
    config: {
      databaseUrl: databasePath,
      logLevel: 'silent',
      migrateOnStart: false,
      rateLimits: options.rateLimits ?? false,
      embeddings: options.embeddings,
      ...(options.backgroundWork !== undefined ? { backgroundWork: options.backgroundWork } : {}),
      ...(options.vectors ? { vectors: options.vectors } : {}),
      ...(options.jobs ? { jobs: options.jobs } : {}),
      ...(options.imports ? { imports: options.imports } : {}),
      ...(options.compute ? { compute: options.compute } : {}),
    },
    ...(options.extraRoutes ? { extraRoutes: options.extraRoutes } : {}),
  });
  await app.ready();
  return { app, request: injector(app), close: () => app.close() };
}

/** A controllable clock for tests of time-dependent behaviour. */
export function manualClock(
  start = Date.parse('2026-01-01T00:00:00.000Z'),
): Clock & { advance(ms: number): void; set(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (ms) => {
      now = ms;
    },
  };
}

/** The minimal valid snapshot body, with overrides. */
export function snapshotBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Compounding', core: 'Small consistent gains compound over time', ...overrides };
}
