import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveBrainId } from '../domain/brains/index.js';
import { enqueueJob } from '../domain/jobs/index.js';

/**
 * Whether the client asked for the work to run as a job: a `Prefer` header (RFC 7240) holding
 * the `respond-async` preference, in any case, among others or with parameters
 * (`Prefer: respond-async, wait=5`).
 */
export function wantsAsync(request: FastifyRequest): boolean {
  const header = request.headers.prefer;
  if (header === undefined) return false;
  const values = Array.isArray(header) ? header : [header];
  return values.some((value) =>
    value.split(',').some((preference) => preference.split(/[;=]/)[0]?.trim().toLowerCase() === 'respond-async'),
  );
}

/**
 * Queues the request's work as a job of `kind` and answers 202 `{ data: { job_id, status } }`
 * with `Location` under the prefix the request came through (`/v1/jobs/job_…`). Call it after
 * Fastify validated the body: a body that fails validation is answered 400, one naming a brain
 * that is not the caller's 404, one `checkBeforeWork` refuses with its error, and none is queued.
 */
export async function queueJob(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: string,
  input: unknown,
  /** What else the synchronous request would refuse before any work (a 422), after the brain. */
  checkBeforeWork?: () => void,
): Promise<FastifyReply> {
  // A brain the caller cannot use is a 404 now, as the synchronous request's would be, not a
  // job accepted only to fail: every job's body names its brain as `brain_id`.
  await resolveBrainId(app.domain, request.principal, (input as { brain_id?: string }).brain_id);
  checkBeforeWork?.();
  const id = await enqueueJob(app.domain, request.principal, kind, input, request.id);
  const prefix = request.url.startsWith('/api/') ? '/api/v1' : '/v1';
  return reply
    .code(202)
    .header('location', `${prefix}/jobs/${id}`)
    .header('preference-applied', 'respond-async')
    .send({ data: { job_id: id, status: 'queued' } });
}
