// What merging near-duplicate insights costs (issue 34): mergeNearDuplicates (through the index
// of rare words, crystallize/similar-sets.ts) against comparing every insight with every kept one
// (what it did before, kept here as the reference), on the insights the built-in extractor
// finds in made-up prose of growing length (test/compute/prose.ts, the text of the issue's
// 900,000-character case) and in the same prose restated (its first half, then that half with
// every 12th word changed: near-duplicates to merge), as crystallize and knowledge ingestion see them.
// Checks that both give the same insights, and prints the times (the median of a few rounds)
// and their ratio. Runs the sources through tsx, no build needed:
//   nice -n 10 node --import tsx bench/near-duplicates.mjs [--sizes 100000,300000,900000] [--rounds 3]
import { performance } from 'node:perf_hooks';
import { prose } from '../packages/server/test/compute/prose.ts';
import { extractKnowledgeEntries, extractSnapshots } from '../packages/server/src/domain/extraction/index.ts';
import { cleanProposal, clip, PROPOSED_TEXT_FIELDS } from '../packages/server/src/domain/crystallize/proposal.ts';
import { mergeNearDuplicates, NEAR_DUPLICATE } from '../packages/server/src/domain/crystallize/synthesize.ts';
import { wordCosine, wordSet } from '../packages/server/src/domain/linking/resemblance.ts';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const SIZES = arg('sizes', '100000,300000,900000').split(',').map(Number);
const ROUNDS = Number(arg('rounds', 3));

/** The merge as it was: every insight against every kept one, the first that resembles it wins. */
function mergeByComparingAll(proposals) {
  const kept = [];
  for (const proposal of proposals) {
    const words = wordSet(`${proposal.name}\n${proposal.core}`);
    const same = kept.find((k) => wordCosine(k.words, words) >= NEAR_DUPLICATE);
    if (!same) {
      kept.push({ proposal: { ...proposal }, words });
      continue;
    }
    const first = same.proposal;
    first.tags = [...new Set([...first.tags, ...proposal.tags])].slice(0, 50);
    for (const field of PROPOSED_TEXT_FIELDS) first[field] ??= proposal[field] ?? null;
    first.significance_score = Math.max(first.significance_score, proposal.significance_score);
  }
  return kept.map((k) => k.proposal);
}

/** Knowledge entries as knowledge ingestion turns them into snapshot fields (knowledge/index.ts). */
const entryProposal = (e) => ({
  name: clip(e.title, 200),
  core: clip(e.content, 2000),
  type: 'Model',
  confidence: 0.5,
  significance_score: 0.5,
  tags: [e.entry_type],
  story: null,
});

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
function timed(fn, input) {
  const times = [];
  let out;
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    out = fn(input);
    times.push(performance.now() - started);
  }
  return { ms: median(times), out };
}

console.log(`| text | insights | kept | every pair (ms) | index (ms) | ratio | same |`);
console.log(`| ---- | -------- | ---- | --------------- | ---------- | ----- | ---- |`);
/** Half the prose, then the same half again with every 12th word changed: near-duplicates to merge. */
function restated(size) {
  const half = prose(Math.floor(size / 2));
  let n = 0;
  return `${half}\n\n${half.replace(/[a-z]+/g, (word) => (++n % 12 === 0 ? `changed${n}` : word))}`;
}

for (const size of SIZES) {
  for (const [label, text] of [
    ['prose', prose(size)],
    ['restated', restated(size)],
  ]) {
    const inputs = {
      crystallize: extractSnapshots(text)
        .map(cleanProposal)
        .filter((p) => p !== undefined),
      knowledge: extractKnowledgeEntries(text, { title: 'Bench', domain: null }).map(entryProposal),
    };
    for (const [kind, proposals] of Object.entries(inputs)) {
      const before = timed(mergeByComparingAll, proposals);
      const after = timed(mergeNearDuplicates, proposals);
      const same = JSON.stringify(before.out) === JSON.stringify(after.out);
      console.log(
        `| ${kind}, ${label}, ${size.toLocaleString('en')} chars | ${proposals.length} | ${after.out.length} | ${before.ms.toFixed(0)} | ${after.ms.toFixed(0)} | ${(before.ms / after.ms).toFixed(1)}× | ${same ? 'yes' : 'NO'} |`,
      );
      if (!same) process.exitCode = 1;
    }
  }
}
