// How often the built-in supersession rules (design §12.5) link two turns of one conversation
// that are not versions of one fact: every pair of turns of each history of a memory-eval set
// (../shared/memory-eval, its README), the earlier against the later, through the built rules
// (packages/server/dist). Neither set marks facts that change turn by turn, so every link is
// counted and the first few printed to read: a rule that links chat at random shows here.
//
//   npm run build && node bench/supersession-pairs.mjs [--set locomo-dev|longmemeval-dev] [--histories N] [--show N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './lib/server.mjs';

const options = { set: 'locomo-dev', histories: Infinity, show: 10 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--set') options.set = argv[++i];
  else if (argv[i] === '--histories') options.histories = Number(argv[++i]);
  else if (argv[i] === '--show') options.show = Number(argv[++i]);
  else throw new Error(`unknown argument ${argv[i]}`);
}
const dist = (path) => join(REPO, 'packages/server/dist/domain/memories/supersession', path);
const { supersedesByRules } = await import(dist('rules.js'));
const { statementOf } = await import(dist('statement.js'));

const file = join(REPO, '..', 'shared', 'memory-eval', options.set, 'turns.jsonl');
const turns = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const histories = new Map();
for (const t of turns) {
  if (!histories.has(t.conv)) histories.set(t.conv, []);
  histories.get(t.conv).push({ content: t.text, speaker: t.speaker });
}
const read = new Map();
const statement = (m) => read.get(m.content) ?? read.set(m.content, statementOf(m.content)).get(m.content);
let pairs = 0;
const linked = [];
for (const memories of [...histories.values()].slice(0, options.histories)) {
  for (let later = 0; later < memories.length; later++) {
    for (let earlier = 0; earlier < later; earlier++) {
      pairs++;
      if (supersedesByRules(memories[earlier], memories[later], statement))
        linked.push([memories[earlier], memories[later]]);
    }
  }
}
const shown = Math.min(options.show, linked.length);
console.log(
  `${options.set}: ${Math.min(histories.size, options.histories)} histories, ${pairs.toLocaleString('en')} pairs of turns, ${linked.length} linked by the rules`,
);
for (const [a, b] of linked.slice(0, shown))
  console.log(`- ${a.speaker}: ${a.content.slice(0, 120)}\n  → ${b.speaker}: ${b.content.slice(0, 120)}`);
