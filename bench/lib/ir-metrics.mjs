// Ranking quality with binary relevance: nDCG@k (log2 discount, the ideal DCG taken over the
// number of labelled relevant items), recall@k and MRR@k, per question, and their means.

/** DCG of the first k of `ranked` (ids, best first) against a Set of relevant ids. */
function dcg(ranked, relevant, k) {
  let sum = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) if (relevant.has(ranked[i])) sum += 1 / Math.log2(i + 2);
  return sum;
}

export function ndcgAt(ranked, relevant, k) {
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg(ranked, relevant, k) / ideal;
}

/** Share of all relevant ids found in the first k. */
export function recallAt(ranked, relevant, k) {
  if (relevant.size === 0) return 0;
  let found = 0;
  for (const id of new Set(ranked.slice(0, k))) if (relevant.has(id)) found++;
  return found / relevant.size;
}

/** 1 / rank of the first relevant id within the first k, 0 when none is there. */
export function mrrAt(ranked, relevant, k) {
  for (let i = 0; i < Math.min(k, ranked.length); i++) if (relevant.has(ranked[i])) return 1 / (i + 1);
  return 0;
}

export const METRICS = [
  { name: 'nDCG@10', of: (r, rel) => ndcgAt(r, rel, 10) },
  { name: 'R@2', of: (r, rel) => recallAt(r, rel, 2) },
  { name: 'R@5', of: (r, rel) => recallAt(r, rel, 5) },
  { name: 'R@10', of: (r, rel) => recallAt(r, rel, 10) },
  { name: 'MRR@10', of: (r, rel) => mrrAt(r, rel, 10) },
];

/** Every metric of one question: { 'nDCG@10': …, 'R@2': …, … }. */
export function scoreQuestion(ranked, relevant) {
  return Object.fromEntries(METRICS.map((m) => [m.name, m.of(ranked, relevant)]));
}

/** The mean of each metric over a list of per-question scores (and how many there were). */
export function meanScores(scores) {
  const mean = Object.fromEntries(
    METRICS.map((m) => [m.name, scores.reduce((sum, s) => sum + s[m.name], 0) / Math.max(1, scores.length)]),
  );
  return { ...mean, n: scores.length };
}
