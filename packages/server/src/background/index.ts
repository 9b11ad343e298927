/**
 * Everything Snapgraph runs in the background, listed in one place. There are two mechanisms:
 *
 * - Background work (worker.ts, BackgroundWorker): tasks the database queues by itself, in the
 *   transaction of the write that calls for them (triggers), with no one waiting for them:
 *   workHandlers below, one handler per kind of task.
 * - Jobs (job-runner.ts, JobRunner; design §14): work a client asked for with
 *   `Prefer: respond-async` and follows at `GET /v1/jobs/:id`, run by the same function the
 *   synchronous route calls: JOB_KINDS below, one function per kind of job.
 *
 * Both are started (and stopped) by buildApp (app.ts) unless BACKGROUND_WORK is off.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Domain } from '../domain/context.js';
import { crystallize, type CrystallizeInput } from '../domain/crystallize/index.js';
import { embedQueued } from '../domain/embeddings/index.js';
import { ingest, type IngestInput } from '../domain/ingest/index.js';
import { registerJobKind, type JobFunction } from '../domain/jobs/index.js';
import { ingestKnowledge, type KnowledgeIngestInput } from '../domain/knowledge/index.js';
import { linkQueuedSnapshot } from '../domain/linking/index.js';
import { runImportJob } from '../domain/transfer/import-job.js';
import type { WorkKind } from '../store/link-store.js';
import { BackgroundWorker, type WorkerOptions, type WorkHandler } from './worker.js';

export { BackgroundWorker } from './worker.js';
export { JobRunner, type JobRunnerOptions } from './job-runner.js';

/**
 * Every kind of job, by the name queueJob (http/jobs.ts) is given: the route's own work, its
 * result the body the synchronous route would have answered. Given `job`, each work records
 * its output as the job's in its own write, and a rerun answers with that (JobRun).
 */
export const JOB_KINDS: Readonly<Record<string, JobFunction>> = {
  // POST /v1/crystallize (http/routes/crystallize.ts).
  crystallize: async ({ domain, principal, input, progress, signal, job }) => ({
    status: 201,
    body: await crystallize(domain, principal, input as CrystallizeInput, { progress, signal, job }),
  }),
  // POST /v1/ingest (http/routes/ingest.ts).
  ingest: async ({ domain, principal, input, progress, signal, job }) => ({
    status: 201,
    body: await ingest(domain, principal, input as IngestInput, { progress, signal, job }),
  }),
  // POST /v1/specific-knowledge/ingest (http/routes/knowledge.ts).
  'knowledge.ingest': async ({ domain, principal, input, progress, signal, job }) => ({
    status: 201,
    body: await ingestKnowledge(domain, principal, input as KnowledgeIngestInput, { progress, signal, job }),
  }),
  // POST /v1/brains/import (http/routes/brain-import.ts): the uploaded file, checked then written.
  import: runImportJob,
};

// Registered when this module loads (buildApp imports it), so that any process with an app can
// run every kind (domain/jobs/registry.ts).
for (const [kind, run] of Object.entries(JOB_KINDS)) registerJobKind(kind, run);

/** Every kind of background task (the durable queue, store/link-store.ts) and its handler. */
function workHandlers(domain: Domain): Partial<Record<WorkKind, WorkHandler>> {
  return {
    // A snapshot written with auto_link on: its automatic edges (domain/linking).
    auto_link: async (d, tasks) => {
      for (const task of tasks) await linkQueuedSnapshot(d, task.brain_id, task.subject_id);
    },
    // A snapshot or memory to embed for semantic search. Only a process with a provider embeds;
    // without one, the tasks wait for a process that has.
    ...(domain.semantic ? { embed: embedQueued } : {}),
  };
}

/** The worker with every kind of background task Snapgraph has, and their handlers. */
export function createBackgroundWorker(domain: Domain, log: FastifyBaseLogger, options?: WorkerOptions) {
  return new BackgroundWorker(domain, workHandlers(domain), log, options);
}
