import { sideOf, type CandidateText } from './candidates.js';
import { judge, type Proposal } from './proposals.js';
import { LINK_RULES } from './rules.js';

/**
 * The proposals among snapshots written together (a crystallize run, an ingestion), for each of
 * them, at `minScore` or more. Found through an inverted index of their words, never by
 * comparing all pairs: each snapshot's candidates are the others sharing its rarer words (a
 * word held by more than LINK_RULES.runCommonAt of the run's snapshots finds none: on a long
 * document such words join almost every pair and weigh almost nothing), the
 * LINK_RULES.candidates sharing most of them, as the brain's own search finds candidates. Work
 * grows with snapshots × words × runCommonAt, not with the square of the snapshots. A run of
 * up to LINK_RULES.candidates + 1 snapshots judges every pair that shares a word, as before.
 * Pure and serialisable both ways: it runs on the compute pool (domain/compute).
 */
export function linkAmongNew(texts: CandidateText[], minScore: number): Proposal[][] {
  const sides = texts.map(sideOf);
  const holders = new Map<string, number[]>();
  sides.forEach((side, i) => {
    for (const word of side.words) {
      const list = holders.get(word);
      if (list) list.push(i);
      else holders.set(word, [i]);
    }
  });
  const pairs = new Set<number>();
  const n = sides.length;
  sides.forEach((side, i) => {
    const weight = new Map<number, number>();
    for (const word of side.words) {
      const list = holders.get(word) as number[];
      if (list.length < 2 || list.length > LINK_RULES.runCommonAt) continue;
      // Rarer words count more, as in the brain's search.
      for (const j of list) if (j !== i) weight.set(j, (weight.get(j) ?? 0) + 1 / list.length);
    }
    const best = [...weight].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, LINK_RULES.candidates);
    for (const [j] of best) pairs.add(Math.min(i, j) * n + Math.max(i, j));
  });
  const proposals: Proposal[][] = sides.map(() => []);
  for (const key of [...pairs].sort((x, y) => x - y)) {
    const i = Math.floor(key / n);
    const j = key % n;
    const proposal = judge(sides[i]!, sides[j]!, undefined);
    if (proposal.score < minScore) continue;
    proposals[i]!.push(proposal);
    proposals[j]!.push(proposal);
  }
  return proposals;
}
