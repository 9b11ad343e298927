import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { createBackgroundWorker, JobRunner } from './background/index.js';
import { startSemanticSearch } from './domain/embeddings/index.js';
import { createChatProvider } from './providers/chat.js';
import { systemClock, type Clock } from './clock.js';
import { defaultComputeThreads, type Config } from './config.js';
import { ComputePool } from './domain/compute/index.js';
import type { Domain } from './domain/context.js';
import { AppError } from './errors.js';
import { AccessLog, registerAccessLog } from './http/plugins/access-log.js';
import { registerAccessControl } from './http/plugins/auth.js';
import {
  NO_FAST_PATH,
  serverWithFastPath,
  snapshotReadFastPath,
  type FastPath,
} from './http/fast-path/snapshot-read.js';
import { answerClientError } from './http/plugins/client-error.js';
import {
  errorBody,
  frameworkErrorHandler,
  registerErrorHandling,
  sendError,
  toAppError,
} from './http/plugins/error-handler.js';
import './http/fastify-types.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { registerJsonBody } from './http/plugins/json-body.js';
import { registerMethodNotAllowed, trackRoutes } from './http/plugins/method-not-allowed.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { requestIdFor } from './http/plugins/request-id.js';
import { registerSecurityHeaders } from './http/plugins/security-headers.js';
import { brainRoutes } from './http/routes/brains.js';
import { crystallizeRoutes } from './http/routes/crystallize.js';
import { edgeRoutes } from './http/routes/edges.js';
import { exportRoutes } from './http/routes/export.js';
import { healthRoutes } from './http/routes/health.js';
import { ingestRoutes } from './http/routes/ingest.js';
import { knowledgeRoutes } from './http/routes/knowledge.js';
import { jobRoutes } from './http/routes/jobs.js';
import { brainImportRoutes } from './http/routes/brain-import.js';
import { importDir, removeLeftoverUploads } from './http/import/import-files.js';
import { memoryRoutes } from './http/routes/memories.js';
import { snapshotRoutes } from './http/routes/snapshots.js';
import { suggestionRoutes } from './http/routes/suggestions.js';
import { validatorCompiler } from './http/plugins/validation.js';
import { onFirstUse } from './http/plugins/schema-compilers.js';
import { LogStream, prettyLogs } from './logging.js';
import { registerMetrics } from './http/plugins/metrics-route.js';
import { registerWebExplorer } from './http/plugins/web-explorer.js';
import { createRateLimiter } from './ratelimit/create-limiter.js';
import { ANONYMOUS_DEFAULT_LIMITS } from './ratelimit/policy.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/store.js';
import { VERSION } from './version.js';

export const API_PREFIXES = ['/v1', '/api/v1'] as const;
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** JOB_LEASE_MS and JOB_MAX_ATTEMPTS, for an app built without them (tests, the CLI). */
const JOB_DEFAULTS = { leaseMs: 30_000, maxAttempts: 3 };
const IMPORT_MAX_BYTES_DEFAULT = 256 * 1024 * 1024;
/** COMPUTE_QUEUE_MAX and COMPUTE_TIMEOUT_MS, for an app built without them. */
const COMPUTE_DEFAULTS = { queueMax: 64, timeoutMs: 120_000 };

/** What buildApp needs of the configuration; the rest has the documented defaults. */
export type AppConfig = Pick<Config, 'databaseUrl' | 'logLevel' | 'migrateOnStart'> &
  Partial<
    Pick<
      Config,
      | 'postgres'
      | 'redisUrl'
      | 'rateLimits'
      | 'anonymousLimits'
      | 'trustProxy'
      | 'backgroundWork'
      | 'embeddings'
      | 'llm'
      | 'jobs'
      | 'imports'
      | 'compute'
      | 'metrics'
      | 'logFormat'
      | 'vectors'
    >
  >;

export interface AppOptions {
  config: AppConfig;
  /** A store to use instead of opening config.databaseUrl; the caller then owns closing it. */
  store?: Store;
  clock?: Clock;
  /** False answers every request through Fastify (tests compare the fast path against it). */
  fastPaths?: boolean;
  /** Compile each route's schemas on first use, not at start (the tests: http/plugins/schema-compilers.ts). */
  compileSchemasOnFirstUse?: boolean;
  /**
   * Routes of a test's own, served under both API prefixes beside the real ones: how the job
   * tests queue a job kind of their own before a real route offers one. Never set in production.
   */
  extraRoutes?: FastifyPluginAsync;
  /** The web explorer's built files; default packages/web/dist (http/plugins/web-explorer.ts). */
  webRoot?: string;
}

/** A hop count becomes "trust the nearest N proxies"; addresses and booleans pass through. */
function fastifyTrustProxy(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/** Builds the whole HTTP application without listening: main.ts, the tests and the CLI share it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const store = options.store ?? (await openStore(config.databaseUrl, config.postgres));
  if (config.migrateOnStart) await store.migrate();

  const logStream = new LogStream({ pretty: prettyLogs(config.logFormat) });
  // Before anything calls a provider (the embeddings probe below); prom-client is loaded only
  // when metrics are on.
  const metrics = config.metrics
    ? (await import('./metrics/index.js')).createMetrics(store, () => domain.semantic?.status())
    : undefined;
  let fastPath: FastPath = NO_FAST_PATH;
  const app = Fastify({
    serverFactory: serverWithFastPath((request, response) => fastPath(request, response)),
    logger: { level: config.logLevel, stream: logStream },
    // One line per request, written by the access log, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: requestIdFor,
    bodyLimit: BODY_LIMIT_BYTES,
    // Our own 503, in the documented error body (below); Fastify's would be its own shape.
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    trustProxy: fastifyTrustProxy(config.trustProxy ?? false),
    // Ids are 31 characters; a longer path parameter is still looked up (and not found)
    // rather than refused by the router, and anything longer still goes through our errors.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    frameworkErrors: frameworkErrorHandler(() => self),
    ...(options.compileSchemasOnFirstUse
      ? { schemaController: { compilersFactory: { buildSerializer: onFirstUse.buildSerializer } } }
      : {}),
  });
  const self: FastifyInstance = app;
  const domain: Domain = { store, clock: options.clock ?? systemClock };
  // Text work off the event loop: no request's text holds up the others' answers (/healthz).
  domain.compute = new ComputePool({ threads: defaultComputeThreads(), ...COMPUTE_DEFAULTS, ...config.compute });
  app.decorate('domain', domain);
  if (!options.store) app.addHook('onClose', async () => store.close());
  app.addHook('onClose', async () => domain.compute?.close());
  app.addHook('onClose', async () => logStream.close());
  const limiter =
    config.rateLimits === false
      ? undefined
      : await createRateLimiter({ redisUrl: config.redisUrl, clock: domain.clock, log: app.log });
  app.decorate('limiter', limiter);
  // When search becomes fast after a start (a large file's index is built in a worker), or why not.
  store.search.onTextIndexEvent?.(({ kind, ...event }) => {
    if (kind === 'built') app.log.info(event, 'search text index built');
    else app.log.warn(event, 'search text index: FTS5 answers meanwhile');
  });
  // When memory search reads a large brain's words from memory (built in a worker after its first search).
  store.memories.onWordIndexBuilt?.((event) => app.log.info(event, 'memory word index built'));
  app.decorate('lifecycle', { draining: false, closing: false });
  app.addHook('preClose', (done) => {
    app.lifecycle.closing = true;
    done();
  });
  if (limiter) app.addHook('onClose', async () => limiter.close());
  // Triggers queue embed tasks only while some process has a provider (the flag).
  if (config.llm) {
    domain.llm = createChatProvider(config.llm);
    // So that /readyz reports a provider that does not answer from the start (design §10.3).
    await domain.llm.probe();
    if (domain.llm.state === 'unavailable') {
      app.log.warn({ url: config.llm.baseUrl }, 'LLM provider: start-up probe got no answer; /readyz says unavailable');
    }
  }
  if (config.embeddings)
    domain.semantic = await startSemanticSearch(domain, config.embeddings, app.log, config.vectors);
  else await store.work.setFlag('embeddings', false);
  if (config.backgroundWork !== false) {
    const worker = createBackgroundWorker(domain, app.log);
    domain.background = worker;
    worker.start();
    // Before the store closes: the tasks in hand finish, the rest stay queued for next time.
    app.addHook('preClose', async () => worker.stop());
    const jobs = new JobRunner(domain, app.log, {
      ...JOB_DEFAULTS,
      ...config.jobs,
      errorBody: (err, requestId) => errorBody(toAppError(err), requestId),
    });
    domain.jobs = jobs;
    jobs.start();
    // The jobs in hand are aborted and go back to the queue, for this process's next start or
    // another instance.
    app.addHook('preClose', async () => jobs.stop());
  }

  app.setValidatorCompiler(options.compileSchemasOnFirstUse ? onFirstUse.validatorCompiler : validatorCompiler);
  registerJsonBody(app, { refuseNul: !store.capabilities.storesNul });
  registerErrorHandling(app);
  registerSecurityHeaders(app);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // A request that reaches a server already stopping (on a connection kept alive from before).
    if (app.lifecycle.closing) {
      sendError(request, reply, new AppError('SERVICE_UNAVAILABLE', 'the server is shutting down; try again'));
      return;
    }
    done();
  });
  // Decided when the answer goes out, not when the request came in: a request that began before
  // shutdown and ends after it (a slow write, a database wait) must not leave its connection
  // open, or the server waits out the client's keep-alive and then overruns SHUTDOWN_TIMEOUT_MS.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const { draining, closing } = app.lifecycle;
    if (draining || closing) reply.header('connection', 'close');
    done(null, payload);
  });
  registerAccessControl(app, { limiter, anonymousLimits: config.anonymousLimits ?? ANONYMOUS_DEFAULT_LIMITS });
  registerIdempotency(app);
  const accessLog = new AccessLog(app.log, logStream, metrics?.observeRequest);
  registerAccessLog(app, accessLog);
  const routes = trackRoutes(app);
  // After trackRoutes: POST /metrics is a 405 with Allow, as on every other path.
  if (metrics) registerMetrics(app, metrics);

  await registerOpenApi(app, VERSION);
  await app.register(healthRoutes);
  const imports = {
    maxBytes: config.imports?.maxBytes ?? IMPORT_MAX_BYTES_DEFAULT,
    dir: importDir(config.imports?.dir, config.databaseUrl),
  };
  // Uploads a killed process left behind, once the app is up (in the background).
  app.addHook('onReady', async () => {
    void removeLeftoverUploads(domain, imports.dir, app.log);
  });
  for (const prefix of API_PREFIXES) {
    await app.register(snapshotRoutes, { prefix });
    await app.register(edgeRoutes, { prefix });
    await app.register(brainRoutes, { prefix });
    await app.register(exportRoutes, { prefix });
    await app.register(suggestionRoutes, { prefix });
    await app.register(crystallizeRoutes, { prefix });
    await app.register(knowledgeRoutes, { prefix });
    await app.register(jobRoutes, { prefix });
    await app.register(brainImportRoutes, { prefix, ...imports });
    if (options.extraRoutes) await app.register(options.extraRoutes, { prefix });
    await app.register(memoryRoutes, { prefix });
    await app.register(ingestRoutes, { prefix });
  }
  await registerWebExplorer(app, options.webRoot);
  await app.register(async (scope) => registerMethodNotAllowed(scope, routes));
  if (options.fastPaths !== false) fastPath = snapshotReadFastPath(app, accessLog);
  return app;
}
