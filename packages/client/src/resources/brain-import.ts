import type { Transport } from '../transport.js';
import type { ImportAccepted, ImportFile, ImportOptions } from '../types.js';

const MEDIA_TYPES = { jsonl: 'application/x-ndjson', graphml: 'application/graphml+xml' } as const;

/**
 * `POST /v1/brains/import` (design §15.3): sends an export file and answers with the queued job;
 * `sg.waitForJob(job.job_id)` resolves with `{ brain_id, counts }`, or rejects naming the bad lines
 * (`error.details: [{ line, reason }]`) when the file had any, in which case nothing was imported.
 */
export function importBrain(
  http: Transport,
  file: ImportFile,
  { format = 'jsonl', brainId, ...options }: ImportOptions = {},
): Promise<ImportAccepted> {
  return http.data<ImportAccepted>({
    method: 'POST',
    path: '/v1/brains/import',
    query: { brain_id: brainId },
    upload: { contentType: MEDIA_TYPES[format], data: file },
    ...options,
  });
}
