import type { FastifyBaseLogger } from 'fastify';
import type { Domain } from '../domain/context.js';
import { embedQueued } from '../domain/embeddings/index.js';
import { linkQueuedSnapshot } from '../domain/linking/index.js';
import { BackgroundWorker, type WorkerOptions } from './worker.js';

export { BackgroundWorker } from './worker.js';

/** The worker with every kind of background task Snapgraph has, and their handlers. */
export function createBackgroundWorker(domain: Domain, log: FastifyBaseLogger, options?: WorkerOptions) {
  return new BackgroundWorker(
    domain,
    {
      auto_link: async (d, tasks) => {
        for (const task of tasks) await linkQueuedSnapshot(d, task.brain_id, task.subject_id);
      },
      // Only a process with a provider embeds; without one, the tasks wait for a process that has.
      ...(domain.semantic ? { embed: embedQueued } : {}),
    },
    log,
    options,
  );
}

export { JobRunner, type JobRunnerOptions } from './job-runner.js';
