// Job kinds and their routes, of the tests' own: real work through the real machinery (the
// registry, queueJob, the runner, the stores), before crystallize and ingest offer theirs.
// Used in-process (startTestApi's extraRoutes) and by the subprocess of test/process/jobs.
import { existsSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Domain } from '../../src/domain/context.js';
import { registerJobKind, type JobContext, type JobResponse } from '../../src/domain/jobs/index.js';
import { createSnapshot } from '../../src/domain/snapshots/index.js';
import { unprocessable } from '../../src/errors.js';
import { queueJob, wantsAsync } from '../../src/http/jobs.js';
import type { Principal } from '../../src/model.js';

export const TestWorkBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    /** A file: the work waits (reporting progress) until it exists. */
    gate: Type.Optional(Type.String()),
    /** 'refuse': an AppError (422); 'crash': an unexpected error. */
    fail: Type.Optional(Type.Enum(['refuse', 'crash'])),
    /** Write a snapshot named `name` (the work's output, in one transaction). */
    write: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type TestWork = Static<typeof TestWorkBody>;

/** How many times each `name` was worked on, in this process. */
export const runs = new Map<string, number>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function work(job: { domain: Domain; input: unknown; principal: Principal } & Partial<JobContext>) {
  const input = job.input as TestWork;
  runs.set(input.name, (runs.get(input.name) ?? 0) + 1);
  job.progress?.({ phase: 'waiting', done: 1, total: 3 });
  while (input.gate !== undefined && !existsSync(input.gate)) {
    if (job.signal?.aborted) throw new Error('stopped');
    await sleep(20);
  }
  job.progress?.({ phase: 'working', done: 2, total: 3 });
  if (input.fail === 'refuse') throw unprocessable(`${input.name} cannot be worked on`);
  if (input.fail === 'crash') throw new Error('secret internals: /etc/passwd');
  if (input.write) {
    const snapshot = await createSnapshot(job.domain, job.principal, { name: input.name, core: 'made by a job' });
    return { status: 201, body: { data: snapshot } } satisfies JobResponse;
  }
  return { status: 200, body: { data: { name: input.name, account_id: job.principal.accountId } } };
}

registerJobKind('test.work', work);

/** `POST /test/work`: the work, synchronously, or as a job with `Prefer: respond-async`. */
export const testJobRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: TestWork }>('/test/work', { schema: { body: TestWorkBody } }, async (request, reply) => {
    if (wantsAsync(request)) return queueJob(app, request, reply, 'test.work', request.body);
    const response = await work({ domain: app.domain, input: request.body, principal: request.principal });
    return reply.code(response.status).send(response.body);
  });
};
