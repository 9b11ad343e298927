// What each rule of the argument reader buys (docs/extraction.md, "What each rule bought"): the
// built extractor run in this process on the crystallize-eval microtexts with every rule, then
// with one rule switched off at a time (ARGUMENT_RULES) or one weight set to 0 (ARGUMENT).
// Same measure as bench/crystallize-quality.mjs, without the HTTP round trips (the full set
// gives the same figures through the API).
//   npm run build && node bench/extraction-ablation.mjs [--data DIR]
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mean, microtextPart, scoreArgument } from './lib/crystallize-measure.mjs';
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

// The parts of bench/crystallize-quality.mjs: series d and k1 are tuned on, k2 is held out
// (microtextPart: series k split in two halves by id, fixed before reading any k text).
const PARTS = {
  d: (row) => microtextPart(row, rows) === 'd',
  k1: (row) => microtextPart(row, rows) === 'k1',
  k2: (row) => microtextPart(row, rows) === 'k2',
  full: () => true,
};

function measure() {
  const scored = rows.map((row) => [row, scoreArgument(extractSnapshots(row.text), row)]);
  const part = (keep) => {
    const scores = scored.filter(([row]) => keep(row)).map(([, s]) => s);
    return { claim: mean(scores.map((s) => s.claim)), challenge: mean(scores.map((s) => s.challenge)) };
  };
  return {
    ...Object.fromEntries(Object.entries(PARTS).map(([name, keep]) => [name, part(keep)])),
    perText: mean(scored.map(([, s]) => s.count)),
  };
}

const f2 = (x) => x.toFixed(3);
const delta = (x, base) => `${f2(x)} (${x - base >= 0 ? '+' : ''}${(x - base).toFixed(3)})`;
const all = measure();
const cells = (m) =>
  ['claim', 'challenge']
    .flatMap((field) => Object.keys(PARTS).map((name) => delta(m[name][field], all[name][field])))
    .join(' | ');
console.log(
  `| switched off | claim F1 d / k1 / k2 (held out) / full | | | | challenge F1 d / k1 / k2 (held out) / full | | | | snapshots a text |`,
);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
console.log(`| nothing (every rule on) | ${cells(all)} | ${all.perText.toFixed(2)} |`);
for (const rule of Object.keys(ARGUMENT_RULES)) {
  ARGUMENT_RULES[rule] = false;
  const m = measure();
  ARGUMENT_RULES[rule] = true;
  console.log(`| rule \`${rule}\` | ${cells(m)} | ${m.perText.toFixed(2)} |`);
}
for (const weight of Object.keys(ARGUMENT).filter((key) => /Bonus|Penalty/.test(key))) {
  const kept = ARGUMENT[weight];
  ARGUMENT[weight] = 0;
  const m = measure();
  ARGUMENT[weight] = kept;
  console.log(`| weight \`${weight}\` (${kept}) set to 0 | ${cells(m)} | ${m.perText.toFixed(2)} |`);
}
