// The built-in extractor's cost (docs/performance.md, "Built-in extractor"): the import, the
// first call (which loads the language model) and the warm throughput of each entry point on
// 100,000 characters of mixed English — prose with cue phrases, a transcript with filler,
// numbered lists and quotes. Run after `npm run build`:
//
//   node bench/extraction.mjs            # 5 warm runs per entry point, medians
//   node bench/extraction.mjs --runs 9
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../packages/server/dist/domain/extraction/index.js', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 5;

/** The same 100,000 characters on every run: paragraphs drawn by a seeded generator. */
function benchText(size) {
  let state = 12345;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  const pick = (items) => items[Math.floor(random() * items.length)];
  const subjects = [
    'small teams',
    'the market',
    'our customers',
    'a good manager',
    'the database',
    'this habit',
    'remote work',
    'code review',
  ];
  const verbs = [
    'ship better software',
    'learn faster',
    'grow slowly',
    'fail quietly',
    'change their minds',
    'improve every quarter',
  ];
  const tails = [
    'than large committees',
    'when nobody is watching',
    'under pressure',
    'with clear goals',
    'after a hard launch',
  ];
  const openers = [
    'I believe that',
    'Rule: never assume',
    'I am convinced that',
    'Fundamentally,',
    'In my view,',
    'We learned that',
    '',
  ];
  const paragraph = () => {
    const kind = random();
    if (kind < 0.15) {
      return `Host: Um, so, what do you think?\nGuest: Yeah, well, you know, ${pick(subjects)} ${pick(verbs)} ${pick(tails)}.\nHost: Right. Okay.`;
    }
    if (kind < 0.25) {
      return `The ${pick(['weekly review', 'hiring loop', 'release'])} protocol:\n1. Collect every open loop.\n2. Decide the next action for each.\n3. Review the calendar for the coming week.`;
    }
    if (kind < 0.3) return `"${pick(subjects)} ${pick(verbs)} ${pick(tails)}," said Jane Doe.`;
    const sentences = [];
    const count = 2 + Math.floor(random() * 4);
    for (let i = 0; i < count; i++) {
      const opener = i === 0 ? pick(openers) : pick(['However,', 'When I started,', 'Then', '', '', '']);
      sentences.push(`${[opener, pick(subjects), pick(verbs), pick(tails)].filter(Boolean).join(' ')}.`);
    }
    return sentences.join(' ');
  };
  let text = '';
  while (text.length < size) text += `${paragraph()}\n\n`;
  return text.slice(0, size);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Cold: a fresh process, so the import and the model load are measured as a CLI would pay them.
const cold = JSON.parse(
  execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    `const c0 = process.cpuUsage(); const t0 = performance.now();
     const m = await import(${JSON.stringify(ENTRY)});
     const c1 = process.cpuUsage(); const t1 = performance.now();
     m.extractSnapshots('I believe that small teams ship faster than large committees.');
     const c2 = process.cpuUsage(); const t2 = performance.now();
     console.log(JSON.stringify({ importMs: t1 - t0, importCpu: (c1.user - c0.user) / 1000,
       firstCallMs: t2 - t1, firstCallCpu: (c2.user - c1.user) / 1000 }));`,
  ]).toString(),
);

const extraction = await import(ENTRY);
const text = benchText(100_000);
extraction.extractSnapshots('Warm-up: the model loads here.');
const entryPoints = {
  extractSnapshots: () => extraction.extractSnapshots(text).length,
  extractKnowledgeEntries: () => extraction.extractKnowledgeEntries(text, { title: 'Bench' }).length,
  extractMemories: () => extraction.extractMemories(text).length,
  'chunkText (4,000-token chunks)': () => extraction.chunkText(text, 4000).length,
};

console.log(`Built-in extractor, ${text.length.toLocaleString('en')} characters, median of ${RUNS} warm runs`);
console.log(
  `  import: ${cold.importMs.toFixed(0)} ms wall, ${cold.importCpu.toFixed(0)} ms CPU; ` +
    `first call (loads the model): ${cold.firstCallMs.toFixed(0)} ms wall, ${cold.firstCallCpu.toFixed(0)} ms CPU`,
);
for (const [name, run] of Object.entries(entryPoints)) {
  const times = [];
  const cpu = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    count = run();
    cpu.push(process.cpuUsage(cpuStarted).user / 1000);
    times.push(performance.now() - started);
  }
  const ms = median(times);
  const rate = ((text.length / ms) * 1000).toLocaleString('en', { maximumFractionDigits: 0 });
  console.log(
    `  ${name}: ${ms.toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU (${rate} characters/s), ${count} results`,
  );
}
