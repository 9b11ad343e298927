// The measures of bench/crystallize-quality.mjs, as the crystallize-eval README defines them:
// token F1 over lower-case words with English stop words dropped; claim F1 is the best F1
// between a snapshot's `core` and the annotated claim, challenge F1 compares that snapshot's
// `challenge` with the opponent's units joined.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../packages/server/package.json', import.meta.url));
const { eng } = require('stopword');
const STOP = new Set(eng);

export function words(text) {
  return (
    String(text ?? '')
      .toLowerCase()
      .match(/[a-z0-9']+/g) ?? []
  ).filter((w) => !STOP.has(w));
}

export function tokenF1(a, b) {
  const x = words(a);
  const y = words(b);
  if (x.length === 0 || y.length === 0) return 0;
  const left = new Map();
  for (const w of y) left.set(w, (left.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of x) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      common++;
      left.set(w, n - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / x.length;
  const recall = common / y.length;
  return (2 * precision * recall) / (precision + recall);
}

/** { claim, challenge, proof, count } of one text's snapshots against its annotation. */
export function scoreArgument(snapshots, { claim, opp = [], pro = [] }) {
  let best = -1;
  let claimF1 = 0;
  snapshots.forEach((s, i) => {
    const f = tokenF1(s.core, claim);
    if (f > claimF1) {
      claimF1 = f;
      best = i;
    }
  });
  const chosen = snapshots[best];
  return {
    claim: claimF1,
    challenge: chosen && opp.length > 0 ? tokenF1(chosen.challenge ?? '', opp.join(' ')) : 0,
    hasOpp: opp.length > 0,
    proof: chosen && pro.length > 0 ? tokenF1(chosen.proof ?? '', pro.join(' ')) : 0,
    count: snapshots.length,
  };
}

/** The first sentence of a text (a plain split at . ! ? before a space), the README's baseline. */
export function firstSentence(text) {
  return text.split(/(?<=[.!?])\s+/)[0] ?? text;
}

export const mean = (values) => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);

/**
 * Meeting notes, transcripts, personal notes and a how-to (bench/crystallize-samples.json):
 * which expected insights became a snapshot (core F1 ≥ 0.6), whether each decision did and as
 * a Rule, which forbidden lines (headers, attendees, greetings) became a snapshot's core or name
 * (F1 ≥ 0.8, or equal), and which people's names became tags.
 */
export function scoreSample(snapshots, sample) {
  const found = sample.insights.map((expected) => {
    const match = snapshots.find((s) => tokenF1(s.core, expected.core) >= 0.6);
    return { expected, match, typed: !expected.type || match?.type === expected.type };
  });
  const forbidden = sample.not.filter((line) =>
    snapshots.some(
      (s) =>
        tokenF1(s.core, line) >= 0.8 ||
        tokenF1(s.name, line) >= 0.8 ||
        s.name.toLowerCase() === line.toLowerCase().replace(/[.:]+$/, ''),
    ),
  );
  const people = new Set(sample.people.map((p) => p.toLowerCase()));
  const nameTags = snapshots.flatMap((s) => s.tags.filter((t) => people.has(t)));
  const decisions = found.filter((f) => f.expected.decision);
  return {
    insights: found.length,
    found: found.filter((f) => f.match).length,
    decisions: decisions.length,
    decisionsFound: decisions.filter((f) => f.match && f.match.type === 'Rule').length,
    forbidden,
    nameTags,
    count: snapshots.length,
    missed: found.filter((f) => !f.match).map((f) => f.expected.core),
  };
}

/**
 * The part of the microtexts a row belongs to (issue 48): series d (`micro_d…`) and the two
 * halves of series k, fixed before any k text was read: the k ids sorted by their number, the
 * 1st, 3rd, 5th … are k1 (may be read to find why a rule misses), the 2nd, 4th, 6th … are k2
 * (never read; the held-out figure). Other series keep their letter.
 */
export function microtextPart(row, rows) {
  const series = /^micro_([a-z]+)/.exec(row.id)?.[1] ?? '';
  if (series !== 'k') return series;
  const number = (id) => Number(/\d+/.exec(id)?.[0] ?? 0);
  const ks = rows
    .map((r) => r.id)
    .filter((id) => /^micro_k/.test(id))
    .sort((a, b) => number(a) - number(b));
  return ks.indexOf(row.id) % 2 === 0 ? 'k1' : 'k2';
}
