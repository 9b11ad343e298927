// What each rule of the argument reader buys (docs/extraction.md, "What each rule bought"): the
// built extractor run in this process on the crystallize-eval microtexts with every rule, then
// with one rule switched off at a time (ARGUMENT_RULES) or one weight set to 0 (ARGUMENT).
// Same measure as bench/crystallize-quality.mjs, without the HTTP round trips (the full set
// gives the same figures through the API).
//   npm run build && node bench/extraction-ablation.mjs [--data DIR]
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mean, scoreArgument } from './lib/crystallize-measure.mjs';
import { REPO } from './lib/server.mjs';

const dist = (path) => new URL(`../packages/server/dist/domain/extraction/${path}`, import.meta.url);
const { extractSnapshots } = await import(dist('index.js'));
const { ARGUMENT, ARGUMENT_RULES } = await import(dist('argument.js'));

const i = process.argv.indexOf('--data');
const dirs =
  i === -1
    ? [resolve(REPO, '../shared/crystallize-eval'), resolve(REPO, '../../shared/crystallize-eval')]
    : [resolve(process.argv[i + 1])];
const file = dirs.map((dir) => join(dir, 'microtexts-dev.jsonl')).find((path) => existsSync(path));
if (!file) {
  console.log('crystallize-eval not found (--data DIR)');
  process.exit(0);
}
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

function measure() {
  const scores = rows.map((row) => scoreArgument(extractSnapshots(row.text), row));
  return {
    claim: mean(scores.map((s) => s.claim)),
    challenge: mean(scores.map((s) => s.challenge)),
    perText: mean(scores.map((s) => s.count)),
  };
}

const f2 = (x) => x.toFixed(3);
const all = measure();
console.log(`| switched off | claim F1 | challenge F1 | snapshots a text |`);
console.log(`| --- | --- | --- | --- |`);
console.log(`| nothing (every rule on) | ${f2(all.claim)} | ${f2(all.challenge)} | ${all.perText.toFixed(2)} |`);
for (const rule of Object.keys(ARGUMENT_RULES)) {
  ARGUMENT_RULES[rule] = false;
  const m = measure();
  ARGUMENT_RULES[rule] = true;
  console.log(
    `| rule \`${rule}\` | ${f2(m.claim)} (${(m.claim - all.claim).toFixed(3)}) | ${f2(m.challenge)} (${(m.challenge - all.challenge).toFixed(3)}) | ${m.perText.toFixed(2)} |`,
  );
}
for (const weight of ['firstBonus', 'conclusionBonus', 'markerBonus', 'supportPenalty', 'rebuttalPenalty']) {
  const kept = ARGUMENT[weight];
  ARGUMENT[weight] = 0;
  const m = measure();
  ARGUMENT[weight] = kept;
  console.log(
    `| weight \`${weight}\` (${kept}) set to 0 | ${f2(m.claim)} (${(m.claim - all.claim).toFixed(3)}) | ${f2(m.challenge)} (${(m.challenge - all.challenge).toFixed(3)}) | ${m.perText.toFixed(2)} |`,
  );
}
