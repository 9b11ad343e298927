import type { Evolution } from '../../store/search-store.js';
import type { Domain } from '../context.js';
import { compareDesc, RANKING, type GraphPart } from './ranking.js';

// The snapshots a search ranks, and the rule that puts a newer version above the one it
// replaces (design §8): split from index.ts, which assembles the candidates and the page.

/** A snapshot being ranked. */
export interface Candidate {
  id: string;
  created_at: string;
  text: number;
  semantic: number | undefined;
  base: number;
  graph: GraphPart | undefined;
  score: number;
  /** Whether it matches a query word (it then shows at least SCORE_FLOOR, design §12). */
  matchesText: boolean;
  /** The newer version this one was put just below (evolved_from). */
  superseded?: string;
  /** The older version whose place this one took (evolved_from). */
  replaces?: string;
}

export const rankedOf = (candidates: Map<string, Candidate>): Candidate[] =>
  [...candidates.values()].sort(
    (a, b) => b.score - a.score || compareDesc(a.created_at, b.created_at) || compareDesc(a.id, b.id),
  );

/**
 * When both ends of an `evolved_from` edge are results, the newer version ranks above the one
 * it replaces: if the older scored at least as high, the newer takes its place and the older
 * goes just below it. The pair stays where the query put its best match (an old version the
 * words found does not sink below unrelated results because its newer version shares fewer
 * words). Only an older version in the first `wanted` can change the page, so only those are
 * looked up, again as others move into it: reading the edges of every candidate cost 0.9 ms a
 * search at 100,000 snapshots.
 */
export async function rankNewerVersionsFirst(
  domain: Domain,
  brainId: string,
  candidates: Map<string, Candidate>,
  wanted: number,
): Promise<void> {
  const all = [...candidates.keys()];
  const looked = new Set<string>();
  const edges: Evolution[] = [];
  for (;;) {
    const fresh = rankedOf(candidates)
      .slice(0, wanted)
      .map((c) => c.id)
      .filter((id) => !looked.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) looked.add(id);
    edges.push(...(await domain.store.search.evolutionsInto(brainId, fresh, all)));
    settleVersions(candidates, edges);
  }
}

/**
 * Passes over the evolved_from edges at most: a chain of versions settles in as many passes as
 * it is long, and a cycle (A evolved from B, B from A) never does — without a bound, a cycle of
 * 3,000 snapshots made one search 9 million steps long. A history of more than 64 versions that
 * all match, its edges read in an unlucky order, may settle only partly.
 */
const VERSION_PASSES = 64;

/**
 * Puts each newer version in its older one's place and the older just below; chains settle in
 * as many passes as they are long (up to VERSION_PASSES; a cycle stops there).
 */
function settleVersions(candidates: Map<string, Candidate>, edges: Evolution[]): void {
  for (let pass = 0; pass <= Math.min(edges.length, VERSION_PASSES); pass++) {
    let changed = false;
    for (const edge of edges) {
      const newer = candidates.get(edge.source_id) as Candidate;
      const older = candidates.get(edge.target_id) as Candidate;
      if (older.score >= newer.score && older.score > 0) {
        if (older.score > newer.score) {
          newer.score = older.score;
          newer.replaces = older.id;
        }
        older.score = Math.max(0, newer.score - RANKING.supersededMargin);
        older.superseded = newer.id;
        changed = true;
      }
    }
    if (!changed) return;
  }
}
