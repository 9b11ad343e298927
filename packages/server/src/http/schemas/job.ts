import { Type } from 'typebox';
import { JOB_STATUSES } from '../../model.js';
import { NextCursor, PageCursor, PageLimit, PageOffset, Timestamp } from './common.js';

const JobStatus = Type.Enum([...JOB_STATUSES], { description: 'queued, running, succeeded or failed' });

/** The 202 of a route asked to run as a job (`Prefer: respond-async`); add it to the route's responses. */
export const JobAcceptedEnvelope = Type.Object(
  {
    data: Type.Object({
      job_id: Type.String({ description: 'job_…: poll GET /v1/jobs/{job_id} (also in Location)' }),
      status: JobStatus,
    }),
  },
  { title: 'JobAccepted', description: 'Accepted: the work runs as a job' },
);

export const JobSchema = Type.Object(
  {
    id: Type.String({ description: 'job_…' }),
    kind: Type.String({ description: 'What the job does, e.g. crystallize' }),
    status: JobStatus,
    progress: Type.Object(
      {
        phase: Type.String({ description: 'queued, a phase named by the work, or done' }),
        done: Type.Integer({ minimum: 0 }),
        total: Type.Integer({ minimum: 0, description: '0 while unknown' }),
      },
      { description: 'Where the work is; written every few hundred milliseconds at most' },
    ),
    result: Type.Unknown({
      description: 'When succeeded: the body the synchronous request would have answered; otherwise null',
    }),
    error: Type.Unknown({
      description:
        'When failed: the error body the synchronous request would have answered ({ error: { code, message, details }, request_id }); otherwise null',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Job' },
);

export const JobEnvelope = Type.Object({ data: JobSchema }, { title: 'JobResponse', description: 'The job' });

export const JobListQuery = Type.Object({
  status: Type.Optional(JobStatus),
  kind: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Only jobs of this kind, e.g. import or crystallize' }),
  ),
  limit: PageLimit(100),
  offset: PageOffset,
  cursor: PageCursor,
});

export const JobListEnvelope = Type.Object(
  {
    data: Type.Array(JobSchema),
    count: Type.Integer({ description: 'Number of all the caller’s jobs that match the filters' }),
    next_cursor: NextCursor,
  },
  { title: 'JobList', description: 'A page of the caller’s jobs, newest first' },
);
