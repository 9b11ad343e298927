// The row a naive baseline inserts for POST /v1/snapshots: the body's fields, Snapgraph's
// defaults, a fresh id and timestamps. Emotion and tags stay values; each driver encodes them.
// Ids and timestamps come from the built server, so they have Snapgraph's exact form.
import { isoTime } from '../../packages/server/dist/clock.js';
import { newId } from '../../packages/server/dist/ids.js';

export function newSnapshotRow(input, columns, { accountId, brainId }) {
  const now = Date.now();
  const at = isoTime(now);
  const row = Object.fromEntries(columns.map((c) => [c, input[c] ?? null]));
  return Object.assign(row, {
    id: newId('snap', now),
    account_id: accountId,
    brain_id: brainId,
    type: input.type ?? 'Belief',
    emotion: input.emotion ?? null,
    confidence: input.confidence ?? 0.5,
    significance_score: input.significance_score ?? 0.5,
    tags: input.tags ?? [],
    source_type: 'manual',
    source_id: null,
    created_at: at,
    updated_at: at,
  });
}
