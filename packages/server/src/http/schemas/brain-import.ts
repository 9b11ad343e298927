import { Type } from 'typebox';
import { JobSchema } from './job.js';

export const BrainImportQuery = Type.Object({
  brain_id: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'Import into this existing brain of yours, under new ids (as `snapgraph import --brain`); without it, the file’s brain is created in your account',
    }),
  ),
});

/** The import's 202: the job as GET /v1/jobs/:id shows it, and its id also as `job_id` (as every 202). */
export const BrainImportAcceptedEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        job_id: Type.String({ description: 'job_…: poll GET /v1/jobs/{job_id} (also in Location)' }),
        ...JobSchema.properties,
      },
      { title: 'ImportJob' },
    ),
  },
  {
    title: 'ImportAccepted',
    description:
      'Accepted: the import runs as a job. When it succeeds, its result is `{ brain_id, counts }`; a file with bad lines fails it with `error.details: [{ line, reason }]` (the first 100) and nothing imported.',
  },
);
