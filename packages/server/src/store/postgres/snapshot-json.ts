import { snapshotJsonArguments } from '../json-columns.js';

export const ISO_MS = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/** A snapshot row as the API's JSON text, built by PostgreSQL (timestamps as ISO 8601 UTC). */
export const snapshotJson = `json_build_object(${snapshotJsonArguments((c) =>
  c === 'created_at' || c === 'updated_at' ? `to_char(${c} AT TIME ZONE 'UTC', '${ISO_MS}')` : c,
)})::text`;
