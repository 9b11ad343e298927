import { byClient, byClientOnCreate, byService, readOnlyFields, type RecordOf } from './field.js';

export const EDGE_TYPES = ['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** Who made an edge: the user (through POST /v1/edges, or by editing an auto edge) or the service. */
export const EDGE_ORIGINS = ['manual', 'auto'] as const;
export type EdgeOrigin = (typeof EDGE_ORIGINS)[number];

/** An edge's fields in the order the API returns them; account_id stays inside the store. */
export const EDGE_FIELDS = {
  id: byService<string>('text'),
  brain_id: byService<string>('text'),
  source_id: byClientOnCreate<string>('text'),
  target_id: byClientOnCreate<string>('text'),
  edge_type: byClient<EdgeType>('text'),
  strength: byClient<number>('number'),
  label: byClient<string | null>('text'),
  origin: byService<EdgeOrigin>('text'),
  created_at: byService<string>('time'),
  updated_at: byService<string>('time'),
};

/** An edge as stored and returned. */
export type Edge = RecordOf<typeof EDGE_FIELDS>;

/** Fields an update may send only unchanged: the service's, and the two ends named at creation. */
export const EDGE_READ_ONLY_FIELDS = readOnlyFields(EDGE_FIELDS);
