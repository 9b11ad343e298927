import type { ProposedSnapshot } from '../../model.js';
import type { Domain } from '../context.js';
import { PROPOSED_TEXT_FIELDS } from './proposal.js';
import { CandidateSearch } from '../linking/candidates.js';
import { SimilarSets } from './similar-sets.js';
import { wordCosine, wordSet } from '../linking/resemblance.js';
import { mapInTurns } from '../turns.js';

/**
 * Two insights whose name and core share this much of their distinctive words (the linker's
 * word cosine) say the same thing: the second is merged into the first. The same text
 * crystallized twice gives the same insights (cosine 1); a rephrasing with a word or two changed
 * stays above it; two statements about one topic fall below it and become two snapshots.
 */
export const NEAR_DUPLICATE = 0.8;
/** The brain's best text matches compared with each insight. */
const KNOWN_CANDIDATES = 5;

const wordsOf = (p: Pick<ProposedSnapshot, 'name' | 'core'>) => wordSet(`${p.name}\n${p.core}`);

/**
 * Within one text: near-duplicates merged into the first of them (tags joined, missing fields
 * filled). Each insight is compared only with the kept ones that share one of its rarest words
 * (SimilarSets), so a text of thousands of insights costs about as many look-ups, not the square.
 */
export function mergeNearDuplicates(proposals: ProposedSnapshot[]): ProposedSnapshot[] {
  const words = proposals.map(wordsOf);
  const index = new SimilarSets(words, NEAR_DUPLICATE);
  const kept: ProposedSnapshot[] = [];
  proposals.forEach((proposal, i) => {
    const own = words[i] as Set<string>;
    const same = index.firstSimilar(own);
    if (same === -1) {
      index.add(own);
      kept.push({ ...proposal });
      return;
    }
    const first = kept[same] as ProposedSnapshot;
    first.tags = [...new Set([...first.tags, ...proposal.tags])].slice(0, 50);
    for (const field of PROPOSED_TEXT_FIELDS) {
      first[field] ??= proposal[field] ?? null;
    }
    first.significance_score = Math.max(first.significance_score, proposal.significance_score);
  });
  return kept;
}

/**
 * Against the brain: the insights that near-duplicate none of its snapshots, judged against the
 * brain's best text matches for each. `search`: the run's, so that its linker reuses the same
 * searches (candidates.ts).
 */
export async function dropKnown(
  domain: Domain,
  brainId: string,
  proposals: ProposedSnapshot[],
  search = new CandidateSearch(domain, brainId),
): Promise<ProposedSnapshot[]> {
  const known = await Promise.all(
    // Each search is queued at once (CandidateSearch runs a few at a time); queuing 12,000 is work too.
    await mapInTurns(proposals, async (proposal) => {
      const matches = await search.bestMatches(
        { ...proposal, one_liner: proposal.one_liner ?? null, brain_id: brainId },
        false,
      );
      const best = matches.slice(0, KNOWN_CANDIDATES);
      if (best.length === 0) return false;
      const rows = await search.sidesOf(best);
      const words = wordsOf(proposal);
      return [...rows.values()].some((other) => wordCosine(wordsOf(other), words) >= NEAR_DUPLICATE);
    }),
  );
  return proposals.filter((_, i) => !known[i]);
}

/** Pending captures a review run compares its insights with (the newest, when there are more). */
const PENDING_COMPARED = 5_000;

/**
 * For a review run: the insights that near-duplicate none of the brain's pending captures, so
 * that crystallizing the same text twice for review proposes nothing the second time, as it
 * makes nothing the second time without review.
 */
export async function dropPending(
  domain: Domain,
  brainId: string,
  proposals: ProposedSnapshot[],
): Promise<ProposedSnapshot[]> {
  if (proposals.length === 0) return proposals;
  const pending: Set<string>[] = [];
  for (let offset = 0; offset < PENDING_COMPARED; offset += 100) {
    const page = await domain.store.knowledge.listPendingCaptures(brainId, { limit: 100, offset, after: undefined });
    pending.push(...page.rows.map((capture) => wordsOf(capture.snapshot)));
    if (page.rows.length < 100) break;
  }
  // On the event loop, but through the index: a look-up per insight, not 5,000 comparisons.
  const words = proposals.map(wordsOf);
  const index = new SimilarSets([...pending, ...words], NEAR_DUPLICATE);
  for (const set of pending) index.add(set);
  return proposals.filter((_, i) => index.firstSimilar(words[i] as Set<string>) === -1);
}
