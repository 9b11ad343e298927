import type { EdgeType } from '../../model.js';

/** An edge the service would make, with its score and the reason in words. */
export interface Proposal {
  source_id: string;
  target_id: string;
  edge_type: EdgeType;
  strength: number;
  score: number;
  reason: string;
}
