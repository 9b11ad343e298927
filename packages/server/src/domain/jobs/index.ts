/**
 * Long work as jobs (design §14): work a route would do synchronously, queued in the database
 * and run later by a runner of any instance, its outcome kept for `GET /v1/jobs/:id`.
 *
 * How a route offers its work as a job:
 * ```ts
 * // once, in the list of background work (background/index.ts, JOB_KINDS): the same
 * // function the synchronous route calls
 * crystallize: async ({ domain, input, principal, progress, signal }) => ({
 *   status: 201,
 *   body: await crystallize(domain, principal, input, { progress, signal }),
 * }),
 * // in the route handler, after Fastify validated the body (http/jobs.ts):
 * if (wantsAsync(request)) return queueJob(app, request, reply, 'crystallize', request.body);
 * ```
 * `queueJob` answers 202 `{ data: { job_id, status: 'queued' } }` with `Location: /v1/jobs/job_…`.
 * A job function that throws an AppError fails the job with that error body; anything else
 * fails it with a 500 INTERNAL body. A job must write its output in one transaction: a job
 * whose process died is run again (up to JOB_MAX_ATTEMPTS claims), and must not leave half of
 * a first run behind. That transaction records the output as the job's too (`job` of the
 * knowledge write, JobRun), so that a rerun after a death between that commit and the job's
 * result answers with what the first run wrote. It should stop when `signal` aborts (shutdown:
 * the job is queued again).
 *
 * The runner lives with the other background work (background/job-runner.ts).
 */
export {
  registerJobKind,
  registeredJobKinds,
  type JobContext,
  type JobFunction,
  type JobResponse,
  type JobRun,
} from './registry.js';
export { enqueueJob, getJob, listJobs, type JobView } from './jobs.js';
export { runClaimedJob, type RunSettings } from './run.js';
