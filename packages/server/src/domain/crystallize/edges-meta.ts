import { LINK_RULES } from '../linking/index.js';

/**
 * Why a crystallize run made no automatic edge, in the words its `meta.noEdgeReason` gives, or
 * undefined when it made some. A run links its new snapshots to each other and to the brain
 * (design §9) by the published rules (docs/auto-edges.md), so a text can truly yield none.
 */
export function noEdgeReason(run: {
  review?: boolean;
  autoLink?: boolean;
  snapshots?: number;
  proposed?: number;
  written?: number;
}): string | undefined {
  if (run.review) return 'review run: a capture is linked when it is accepted';
  if (run.autoLink === false) return 'auto_link is false';
  if ((run.written ?? 0) > 0) return undefined;
  if ((run.snapshots ?? 0) === 0) return 'no new snapshot: nothing to link';
  if ((run.proposed ?? 0) > 0) return 'every edge proposed exists already or was deleted by the user';
  const threshold = LINK_RULES.autoMinScore;
  if (run.snapshots === 1) {
    return `one new snapshot, and no snapshot of the brain shares enough words with it (an automatic edge needs a score of ${threshold})`;
  }
  return `no two of the new snapshots, and none of them and a snapshot of the brain, share enough words (an automatic edge needs a score of ${threshold})`;
}
