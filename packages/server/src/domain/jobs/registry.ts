import type { Principal } from '../../model.js';
import type { JobOutput, JobProgress } from '../../store/job-store.js';
import type { Domain } from '../context.js';

/** What a job kind's function is given: the request as it was accepted, and a way to report. */
export interface JobContext {
  /** The domain of the app running the job (kinds are registered once per process, apps vary). */
  domain: Domain;
  /** The request body as validated when the job was queued (JSON: dates are strings). */
  input: unknown;
  /** The caller who queued it, as authentication resolved the key then. */
  principal: Principal;
  /** Where the work is; cheap to call often (writes are throttled). */
  progress: (progress: JobProgress) => void;
  /** Aborted when the process shuts down or the job's lease was lost: stop, write nothing. */
  signal: AbortSignal;
  /** Which job this is, for a work whose output write is the job's (KnowledgeWrite.job). */
  job: JobRun;
}

/**
 * A job as its work sees it. A work that writes its output with `job` (store/knowledge-store.ts)
 * records that output in the same transaction; when the process died after that commit and
 * before the job's result was recorded, the job is run again with `written` set, and the work
 * answers from it rather than working again (its dedup would find everything known, and answer
 * that nothing was written).
 */
export interface JobRun {
  id: string;
  /** The runner holding the job's lease: the output write is refused unless it still does. */
  owner: string;
  /** What an earlier run of the job wrote, when it died before the job recorded its result. */
  written: JobOutput | undefined;
}

/** The synchronous response the work would have given: `result` of the finished job. */
export interface JobResponse {
  status: number;
  body: unknown;
}

export type JobFunction = (job: JobContext) => Promise<JobResponse>;

const kinds = new Map<string, JobFunction>();

/**
 * Makes `kind` runnable as a job, by the same function the synchronous route calls. Kinds are
 * code, like routes: one registry for the process, filled from background/index.ts (JOB_KINDS)
 * when the app loads (or a test registers its own). A kind registered again is replaced.
 */
export function registerJobKind(kind: string, run: JobFunction): void {
  kinds.set(kind, run);
}

export const jobFunction = (kind: string): JobFunction | undefined => kinds.get(kind);

/** The kinds this process can run: its runner claims only these. */
export const registeredJobKinds = (): string[] => [...kinds.keys()];
